"""What the figures and pages say of a model comes from the file's declarations, never from a
table of model kinds (issue 43): a family's label (/theory/label, older files the families
table), what a cell reads (its key: an unread parameter is empty), what a rate means (its
declared description, split per model where it speaks per model)."""
import os

import h5py
import numpy as np

from pmoe.plots import figures, labels

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results",
                         "reference", "paper", "a_models_vs_N.h5")


def _file(path, kinds, theory_labels=None):
    with h5py.File(path, "w") as f:
        f.create_dataset("cells/model.kind", data=np.array(kinds, dtype=object),
                         dtype=h5py.string_dtype())
        if theory_labels is not None:
            unique = list(dict.fromkeys(kinds))
            f.create_dataset("theory/model_kind", data=np.array(unique, dtype=object),
                             dtype=h5py.string_dtype())
            f.create_dataset("theory/label", data=np.array(theory_labels, dtype=object),
                             dtype=h5py.string_dtype())


def test_a_family_s_label_is_the_file_s_and_an_older_file_s_the_families_table(tmp_path):
    _file(tmp_path / "new.h5", ["toy_model", "toy_model"], ["a toy of the tests"])
    with h5py.File(tmp_path / "new.h5", "r") as f:
        assert labels.kind_labels(f) == {"toy_model": "a toy of the tests"}
    with h5py.File(REFERENCE, "r") as f:  # written before /theory/label
        assert "label" not in f["theory"]
        assert labels.kind_labels(f) == {"separate": "separate pMoE", "joint": "joint pMoE",
                                         "cnn": "CNN"}
    _file(tmp_path / "unknown.h5", ["toy_model"])  # no /theory, no row in the table: the kind
    with h5py.File(tmp_path / "unknown.h5", "r") as f:
        assert labels.kind_labels(f) == {"toy_model": "toy_model"}


def test_a_parameter_a_cell_does_not_read_names_none_of_its_series():
    cnn = {"model.kind": "cnn", "model.l": "", "data.n": 8}
    moe = {"model.kind": "any_moe", "model.l": 2, "data.n": 8}
    assert figures.series_key(cnn, ["model.kind", "model.l", "data.n"]) == \
        "model.kind=cnn, data.n=8"
    assert figures.series_key(moe, ["model.kind", "model.l"]) == "model.kind=any_moe, model.l=2"


def test_a_rate_note_is_the_declared_meaning_per_model_drawn():
    meaning = "separate: Lemma 4.1 hit rate; joint: Assumption 4.4 rate (test set)"
    assert figures.rate_note(meaning, {"separate", "cnn"}) == \
        "\nseparate pMoE: Lemma 4.1 hit rate"
    assert figures.rate_note(meaning, {"joint", "separate"}) == \
        "\njoint pMoE: Assumption 4.4 rate (test set)\nseparate pMoE: Lemma 4.1 hit rate"
    assert figures.rate_note(meaning, {"cnn"}) == ""  # a model it says nothing of
    assert figures.rate_note("test samples beyond the margin", {"toy_model"}) == \
        "\ntest samples beyond the margin"
    assert figures.rate_note("", {"toy_model"}) == ""
