"""Human labels (pmoe.plots.labels): every parameter of the generated parameter table
(docs/reference/parameters.md, `pmoe-sim --list-params --markdown`) has one; labels, symbols and
units are the declared ones; symbols are set in math; series read as a reader says them."""
import re

from pmoe.plots import labels


def test_every_parameter_has_a_label():
    table = labels.parameter_table()
    assert len(table) > 40 and "model.l" in table and "data.p" in table
    for name in table:
        words = labels.words(name)
        assert words and not re.search(r"\b(data|model)\.\w", words), (name, words)
        assert labels.axis_label(name).startswith(words)


def test_labels_symbols_and_units_come_from_the_declarations():
    table = labels.parameter_table()
    assert table["model.l"]["label"] == "patches per expert" and table["model.l"]["symbol"] == "l"
    assert table["N"]["unit"] == "samples" and table["data.clusters"]["symbol"] == "K"
    assert labels.symbol("model.sigma_w") is None


def test_the_issue_s_examples():
    assert labels.axis_label("model.l") == "patches per expert $l$"
    assert labels.axis_label("data.p") == "pattern sets $p$"
    assert labels.axis_label("N") == "training samples $N$"
    assert labels.setting_label({"data.n": "8", "model.kind": "cnn"}) == "CNN, $n = 8$"
    assert labels.value_label("model.kind", "separate") == "separate pMoE"
    # A parameter without a symbol reads as words and value.
    assert labels.value_label("model.max_steps", "5000") == "step cap 5000"


def test_table_cells_with_escaped_bars():
    """A meaning holding "|" (escaped as "\\|" in the Markdown table) is read whole."""
    assert labels.parameter_table()["data.delta_r"]["meaning"].startswith("bound on |<o_a, q>|")
