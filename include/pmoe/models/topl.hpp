// J_s(x): the l largest routing values of one expert over n patches (MODEL.md §4).
#pragma once

namespace pmoe {

// Indices of the l largest of v[0], v[stride], ..., v[(n-1) stride], by descending value, ties
// broken by lower index; out[0] is the arg-max. O(n l), fast for the small n of patches.
template <typename T>
void TopL(const T* v, int stride, int n, int l, int* out) {
  int filled = 0;
  for (int j = 0; j < n; ++j) {
    const T value = v[j * stride];
    if (filled == l && !(value > v[out[l - 1] * stride])) continue;
    int pos = filled < l ? filled++ : l - 1;
    // Strict comparison: an equal value already held has a lower index and stays ahead.
    while (pos > 0 && value > v[out[pos - 1] * stride]) {
      out[pos] = out[pos - 1];
      --pos;
    }
    out[pos] = j;
  }
}

}  // namespace pmoe
