// A family's parameters declared on the fields of the plain struct its data or model code takes
// (DataSpec, ModelSpec): each row names its field once, which gives its type and default (the
// field's initializer), and the family fills the struct from a cell's parameters with Read. The
// rows go into the table through the family's params() or shared_params() (Rows).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/core/param_table.hpp"

namespace pmoe {

template <typename S>
struct FieldParam {
  ParamInfo row;
  std::function<void(const TrialSpec&, S&)> read;  // the cell's value into the struct's field

  // As ParamInfo::Labeled.
  FieldParam& Labeled(std::string words, std::string sym = "", std::string unit = "") {
    row.Labeled(std::move(words), std::move(sym), std::move(unit));
    return *this;
  }

  // As ParamInfo::Resolved.
  FieldParam& Resolved(std::string rule, std::function<std::string(const TrialSpec&)> value) {
    row.Resolved(std::move(rule), std::move(value));
    return *this;
  }
};

// The parameter `name`, read into the field `field` of S; its type and default are the field's.
template <typename S, typename T>
FieldParam<S> ParamOnField(const std::string& name, const std::string& help, T S::*field,
                           const std::vector<std::string>& choices = {}, long long min = 0,
                           long long max = 0) {
  FieldParam<S> p;
  p.row = ValueRow<T>(name, help, S{}.*field, choices, min, max);
  p.read = [get = p.row.get, field](const TrialSpec& spec, S& out) {
    out.*field = FromCanonical<T>(get(spec));
  };
  return p;
}

// As Unkeyed for a table row.
template <typename S>
FieldParam<S> Unkeyed(FieldParam<S> p) {
  p.row = Unkeyed(std::move(p.row));
  return p;
}

template <typename S>
using FieldParams = std::vector<FieldParam<S>>;

// The table rows of `params`, those named in `names` (all when `names` is null).
template <typename S>
std::vector<ParamInfo> Rows(const FieldParams<S>& params,
                            const std::vector<std::string>* names = nullptr) {
  std::vector<ParamInfo> rows;
  for (const FieldParam<S>& p : params) {
    bool named = names == nullptr;
    for (size_t i = 0; !named && i < names->size(); ++i) named = (*names)[i] == p.row.name;
    if (named) rows.push_back(p.row);
  }
  return rows;
}

// Sets each field of `out` that `params` declare to its value in `spec`.
template <typename S>
void Read(const TrialSpec& spec, const FieldParams<S>& params, S& out) {
  for (const FieldParam<S>& p : params) p.read(spec, out);
}

}  // namespace pmoe
