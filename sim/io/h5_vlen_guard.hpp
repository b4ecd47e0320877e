// A check of a variable-length string column's references into the file's global heap before
// HDF5 follows them (issue 28). HDF5 1.10 trusts them: a damaged heap index of one /trials/message
// string read memory outside the heap's table and crashed every tool reading the file. Here each
// element's raw reference (length, collection address, object index) is read from the column's
// chunks as stored, each collection it names is parsed as HDF5 would parse it (signature,
// version, size, objects within it), and each reference must name an object of exactly the
// element's length. Private to sim/io.
#pragma once

#include <hdf5.h>

#include <string>

namespace pmoe {

// "" when every element of the 1-D variable-length string dataset `set` of the file `file_id`
// (opened from `path`) can be read safely; else what is wrong, in words that complete
// "COLUMN: ...".
std::string VlenStringProblem(hid_t file_id, hid_t set, const std::string& path);

// "" when every global heap collection of the file parses as HDF5 would parse it; else what is
// wrong. Checked when a file is opened, before any string attribute is read: a collection whose
// free space was damaged made HDF5 loop forever reading the config attribute (found by
// flipping each byte of the heap in turn).
std::string HeapCollectionsProblem(hid_t file_id, const std::string& path);

}  // namespace pmoe
