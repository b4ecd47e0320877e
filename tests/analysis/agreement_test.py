"""pmoe.report.agreement: a condition that holds in one run and fails in the other is a
contradiction; one undecided or untestable in either agrees; conditions of other names are not
compared."""
from pmoe.report import agreement, rules


def finding(*conditions):
    f = rules.Finding("pattern model", "sweep", rules.UNDECIDED, "")
    for name, outcome in conditions:
        f.check(name, outcome, f"why {name}")
    return f


def test_holds_against_fails_is_a_contradiction_either_way():
    for a, b in ((rules.HOLDS, rules.FAILS), (rules.FAILS, rules.HOLDS)):
        compared, contradictions = agreement.compare_findings(finding(("slope", a)),
                                                              finding(("slope", b)))
        assert compared == 1
        assert [c[:3] for c in contradictions] == [("slope", a, b)]


def test_undecided_or_untestable_agrees_with_anything():
    for a in (rules.OPEN, rules.UNTESTABLE):
        for b in (rules.HOLDS, rules.FAILS, rules.OPEN, rules.UNTESTABLE):
            assert agreement.compare_findings(finding(("x", a)), finding(("x", b)))[1] == []
            assert agreement.compare_findings(finding(("x", b)), finding(("x", a)))[1] == []


def test_only_conditions_of_the_same_name_are_compared():
    compared, contradictions = agreement.compare_findings(
        finding(("at N = 96", rules.HOLDS), ("shared", rules.HOLDS)),
        finding(("at N = 192", rules.FAILS), ("shared", rules.HOLDS)))
    assert compared == 1 and contradictions == []
