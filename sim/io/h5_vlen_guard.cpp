// The global heap's format (HDF5 file format specification, "Global Heap"): a collection is
// "GCOL", version 1, three reserved bytes, its size (length-size bytes), then objects, each a
// 2-byte index, 2-byte reference count, 4 reserved bytes, its size (length-size bytes) and its
// data padded to a multiple of 8; index 0 is the free space at the end. A variable-length
// element on disk is a 4-byte length, the collection's address (offset-size bytes) and a 4-byte
// object index.
#include "h5_vlen_guard.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace pmoe {
namespace {

class Fd {
 public:
  explicit Fd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  // Exactly `size` bytes at `offset`, or false.
  bool Read(uint64_t offset, size_t size, std::vector<unsigned char>* out) const {
    out->resize(size);
    size_t done = 0;
    while (done < size) {
      const ssize_t n =
          ::pread(fd_, out->data() + done, size - done, static_cast<off_t>(offset + done));
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }
  uint64_t Size() const {
    const off_t end = ::lseek(fd_, 0, SEEK_END);
    return end < 0 ? 0 : static_cast<uint64_t>(end);
  }

 private:
  int fd_;
};

uint64_t Decode(const unsigned char* p, size_t bytes) {  // little-endian
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

// A parsed collection: object index -> size. Empty `problem` when it parsed.
struct Collection {
  std::string problem;
  std::map<uint32_t, uint64_t> objects;
};

Collection ParseCollection(const Fd& fd, uint64_t base, uint64_t address, uint64_t file_size,
                           size_t sizeof_size) {
  Collection c;
  const size_t header = 4 + 1 + 3 + sizeof_size, object_header = 2 + 2 + 4 + sizeof_size;
  std::vector<unsigned char> head;
  if (address > file_size || file_size - address < header ||
      !fd.Read(base + address, header, &head))
    return {"a reference to a heap collection at address " + std::to_string(address) +
                " outside the file",
            {}};
  if (std::string(head.begin(), head.begin() + 4) != "GCOL" || head[4] != 1)
    return {
        "a reference to address " + std::to_string(address) + ", which holds no heap collection",
        {}};
  const uint64_t size = Decode(head.data() + 8, sizeof_size);
  if (size < header || size > file_size - address || size > (uint64_t{1} << 32))
    return {"the heap collection at address " + std::to_string(address) + " claims " +
                std::to_string(size) + " bytes (the file has " + std::to_string(file_size) + ")",
            {}};
  std::vector<unsigned char> data;
  if (!fd.Read(base + address, static_cast<size_t>(size), &data))
    return {"cannot read the heap collection at address " + std::to_string(address), {}};
  uint64_t at = header;
  while (at < size) {
    if (size - at < object_header) break;  // too small for an object: free space (as HDF5 reads)
    const uint32_t index = static_cast<uint32_t>(Decode(&data[at], 2));
    const uint64_t object_size = Decode(&data[at + 8], sizeof_size);
    if (index == 0) {
      // The free space, whose size counts its own header: HDF5 steps over it by that size and
      // goes on parsing, so it must end the collection exactly (shorter, HDF5 would read what
      // follows as objects, possibly replacing real ones; of size 0 it would loop forever).
      if (object_size != size - at)
        return {"the heap collection at address " + std::to_string(address) +
                    " has free space of " + std::to_string(object_size) + " bytes where " +
                    std::to_string(size - at) + " remain (damaged)",
                {}};
      break;
    }
    const uint64_t padded = (object_size + 7) / 8 * 8;
    if (object_size > size || padded > size - at - object_header)
      return {"heap object " + std::to_string(index) + " in the collection at address " +
                  std::to_string(address) + " runs past its end (damaged)",
              {}};
    if (!c.objects.emplace(index, object_size).second)
      return {"heap object " + std::to_string(index) +
                  " appears twice in the collection at address " + std::to_string(address) +
                  " (damaged)",
              {}};
    at += object_header + padded;
  }
  return c;
}

// Undoes the filters of one chunk (deflate, shuffle, Fletcher-32: what h5repack and h5py
// apply); false with `problem` set for any other.
bool Unfilter(hid_t create, unsigned mask, size_t element, size_t expected,
              std::vector<unsigned char>* bytes, std::string* problem) {
  const int filters = H5Pget_nfilters(create);
  for (int f = filters - 1; f >= 0; --f) {
    if (mask & (1u << f)) continue;  // this filter was skipped for the chunk
    unsigned flags = 0;
    size_t values = 0;
    char name[64];
    unsigned config = 0;
    const H5Z_filter_t id = H5Pget_filter2(create, static_cast<unsigned>(f), &flags, &values,
                                           nullptr, sizeof name, name, &config);
    if (id == H5Z_FILTER_FLETCHER32) {
      if (bytes->size() < 4) return *problem = "a chunk too short for its checksum", false;
      bytes->resize(bytes->size() - 4);
    } else if (id == H5Z_FILTER_DEFLATE) {
      std::vector<unsigned char> out(expected);
      uLongf out_size = static_cast<uLongf>(expected);
      if (::uncompress(out.data(), &out_size, bytes->data(), static_cast<uLong>(bytes->size())) !=
              Z_OK ||
          out_size != expected)
        return *problem = "a compressed chunk that does not inflate to its size", false;
      bytes->swap(out);
    } else if (id == H5Z_FILTER_SHUFFLE) {
      const size_t count = bytes->size() / element;
      std::vector<unsigned char> out(*bytes);
      for (size_t j = 0; j < element; ++j)
        for (size_t i = 0; i < count; ++i) out[i * element + j] = (*bytes)[j * count + i];
      bytes->swap(out);
    } else {
      return *problem = "filter " + std::to_string(id) + " (" + name +
                        "), which this check does not undo, on a string column",
             false;
    }
  }
  return true;
}

}  // namespace

std::string HeapCollectionsProblem(hid_t file_id, const std::string& path) {
  hid_t fcpl = H5Fget_create_plist(file_id);
  size_t sizeof_addr = 8, sizeof_size = 8;
  hsize_t userblock = 0;
  H5Pget_sizes(fcpl, &sizeof_addr, &sizeof_size);
  H5Pget_userblock(fcpl, &userblock);
  H5Pclose(fcpl);
  if (sizeof_size < 2 || sizeof_size > 8) return "";
  Fd fd(path);
  if (!fd.ok()) return "";
  const uint64_t size = fd.Size();
  const uint64_t file_size = size > userblock ? size - userblock : 0;
  const size_t block = size_t{1} << 20;
  std::vector<unsigned char> bytes;
  for (uint64_t start = 0; start < size; start += block) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(block + 15, size - start));
    if (!fd.Read(start, n, &bytes)) return "";
    for (size_t at = 0; at + 16 <= n && at < block; ++at) {
      if (bytes[at] != 'G' || bytes[at + 1] != 'C' || bytes[at + 2] != 'O' || bytes[at + 3] != 'L')
        continue;
      // A collection's header: version 1, three zero bytes, a size of at least 4096 (HDF5's
      // smallest) within the file; text that merely spells GCOL is not one.
      if (bytes[at + 4] != 1 || bytes[at + 5] || bytes[at + 6] || bytes[at + 7]) continue;
      const uint64_t claimed = Decode(&bytes[at + 8], sizeof_size);
      const uint64_t address = start + at - userblock;
      if (claimed < 4096 || start + at < userblock || claimed > file_size - address) continue;
      const Collection c = ParseCollection(fd, userblock, address, file_size, sizeof_size);
      if (!c.problem.empty()) return c.problem;
    }
  }
  return "";
}

std::string VlenStringProblem(hid_t file_id, hid_t set, const std::string& path) {
  hid_t fcpl = H5Fget_create_plist(file_id);
  size_t sizeof_addr = 8, sizeof_size = 8;
  hsize_t userblock = 0;
  H5Pget_sizes(fcpl, &sizeof_addr, &sizeof_size);
  H5Pget_userblock(fcpl, &userblock);
  H5Pclose(fcpl);
  if (sizeof_addr < 2 || sizeof_addr > 8 || sizeof_size < 2 || sizeof_size > 8)
    return "a file whose address sizes this check does not know";
  const size_t element = 4 + sizeof_addr + 4;
  Fd fd(path);
  if (!fd.ok()) return "cannot reopen the file to check its strings";
  const uint64_t file_size = fd.Size() > userblock ? fd.Size() - userblock : 0;

  hid_t space = H5Dget_space(set);
  hsize_t rows = 0;
  H5Sget_simple_extent_dims(space, &rows, nullptr);
  hid_t create = H5Dget_create_plist(set);
  const H5D_layout_t layout = H5Pget_layout(create);
  // The raw bytes of every stored element, row after row (unwritten chunks hold no references).
  std::vector<std::pair<hsize_t, std::vector<unsigned char>>> pieces;  // (first row, bytes)
  std::string problem;
  if (layout == H5D_CONTIGUOUS) {
    const haddr_t address = H5Dget_offset(set);
    std::vector<unsigned char> bytes;
    if (address != HADDR_UNDEF && rows > 0) {
      if (address > file_size || (file_size - address) / element < rows ||
          !fd.Read(userblock + address, rows * element, &bytes))
        problem = "its data lies outside the file";
      else
        pieces.emplace_back(0, std::move(bytes));
    }
  } else if (layout == H5D_CHUNKED) {
    hsize_t chunk_rows = 0;
    H5Pget_chunk(create, 1, &chunk_rows);
    hsize_t chunks = 0;
    if (H5Dget_num_chunks(set, space, &chunks) < 0) problem = "cannot list its chunks";
    for (hsize_t i = 0; problem.empty() && i < chunks; ++i) {
      hsize_t offset = 0, stored = 0;
      unsigned mask = 0;
      haddr_t address = 0;
      if (H5Dget_chunk_info(set, space, i, &offset, &mask, &address, &stored) < 0 ||
          chunk_rows == 0 || offset >= rows || address > file_size ||
          stored > file_size - address || stored > (hsize_t{1} << 31)) {
        problem = "a chunk outside the file or the column";
        break;
      }
      std::vector<unsigned char> bytes;
      if (!fd.Read(userblock + address, static_cast<size_t>(stored), &bytes)) {
        problem = "cannot read a chunk";
        break;
      }
      if (!Unfilter(create, mask, element, chunk_rows * element, &bytes, &problem)) break;
      if (bytes.size() < chunk_rows * element) {
        problem = "a chunk shorter than its rows";
        break;
      }
      pieces.emplace_back(offset, std::move(bytes));
    }
  } else {
    problem = "a compact (or unknown) layout, which result files do not use for strings";
  }
  H5Pclose(create);
  H5Sclose(space);
  if (!problem.empty()) return problem;

  std::map<uint64_t, Collection> collections;
  for (const auto& [first, bytes] : pieces) {
    for (size_t at = 0; at + element <= bytes.size() && first + at / element < rows;
         at += element) {
      const uint64_t row = first + at / element;
      const uint64_t length = Decode(&bytes[at], 4);
      const uint64_t address = Decode(&bytes[at + 4], sizeof_addr);
      const uint32_t index = static_cast<uint32_t>(Decode(&bytes[at + 4 + sizeof_addr], 4));
      if (address == 0) continue;  // no heap object: an empty string, which HDF5 does not look up
      auto it = collections.find(address);
      if (it == collections.end())
        it = collections
                 .emplace(address, ParseCollection(fd, userblock, address, file_size, sizeof_size))
                 .first;
      const Collection& c = it->second;
      const std::string where = "row " + std::to_string(row) + ": ";
      if (!c.problem.empty()) return where + c.problem;
      const auto object = c.objects.find(index);
      if (index == 0 || object == c.objects.end())
        return where + "a reference to heap object " + std::to_string(index) +
               ", which the collection at address " + std::to_string(address) + " does not hold";
      if (object->second != length)
        return where + "a string of " + std::to_string(length) + " bytes whose heap object holds " +
               std::to_string(object->second);
    }
  }
  return "";
}

}  // namespace pmoe
