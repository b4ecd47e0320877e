// The images of data model B (MODEL.md §3): the train and test splits of a directory of
// MNIST-format IDX files, loaded once per process and shared read-only by every trial.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pmoe {

struct ImageSplit {
  int count = 0;
  std::vector<uint8_t> pixels;             // (count, rows*cols)
  std::vector<uint8_t> labels;             // (count)
  std::vector<std::vector<int>> by_class;  // image indices of each label value
};

struct ImageDataset {
  std::string dir;
  int rows = 0, cols = 0;
  ImageSplit train, test;  // never mixed: training samples from train, test samples from test
  int classes = 0;         // 1 + the largest label
};

// data.idx_dir's value as a directory: a named data set ("mnist": the MNIST digits that
// scripts/install-mnist.sh installs; "fashion-mnist": Debian's dataset-fashion-mnist) is looked
// up where its installer puts it (SchemaError naming the install command when it is not there);
// anything else is a directory already. The name, not the place, enters the cell's key, so a
// sweep's seeds do not depend on where a machine installed its data.
std::string ResolveImageDir(const std::string& dir_or_name);

// Reads DIR/{train,t10k}-{images-idx3,labels-idx1}-ubyte, each gzip-compressed (.gz) or not
// (DIR: ResolveImageDir of the argument); checks that image and label counts agree and that both
// splits have one image size. Throws SchemaError naming the file and the problem.
ImageDataset LoadImageDataset(const std::string& dir_or_name);

// LoadImageDataset, once per directory or name per process; thread-safe.
std::shared_ptr<const ImageDataset> SharedImageDataset(const std::string& dir_or_name);

}  // namespace pmoe
