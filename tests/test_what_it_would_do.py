"""Questions about what the robot would do (on its own, in a case, even if) ask the manual; they check no state and
start nothing. The same words said as a request still act."""

import pytest

from registry.contracts import DeviceContext, TurnInput
from tests.conftest import actions


def _route(runner, text):
    return runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="안방")))


@pytest.mark.parametrize("text", [
    "배터리가 다 떨어져도 충전대로 가?",               # Kiwi reads -어도 as 어 + 도 here; joined it supposes
    "배터리가 바닥이어도 스테이션 복귀는 되지?",
    "배터리 10프로 남았을 때도 거실까지 가?",           # (a case: already asked, a guard)
])
def test_a_question_asked_for_a_case_checks_no_state(runner, text):
    record = _route(runner, text)
    assert record.family == "DQR" and actions(record) == [], (text, record.family, actions(record))


def test_the_concessive_ending_read_in_two_pieces_is_one_clause(runner):
    record = _route(runner, "배터리가 다 떨어져도 충전대로 가?")
    assert len(record.evidence.clauses) == 1, [c.text for c in record.evidence.clauses]


@pytest.mark.parametrize("text", [
    "센서 모드 켜 두면 공기 나빠질 때 알아서 풍량 올려 줘?",
    "공기 나빠지면 자동으로 풍량 올려 줘?",
    "청정 끝나면 스스로 충전대로 돌아가 줘?",
])
def test_whether_it_does_something_on_its_own_is_asked_of_the_manual(runner, text):
    record = _route(runner, text)
    assert record.family == "DQR" and actions(record) == [], (text, record.family, actions(record))
    assert "asks_autonomy" in record.evidence.clauses[-1].speech_act.signals


@pytest.mark.parametrize("text, expected", [
    ("알아서 풍량 올려 줘", ["fan_speed.level"]),                     # no "?": asked of it, on its own judgment
    ("공기 나빠지면 알아서 풍량 올려 줘", ["air_quality.check", "fan_speed.level"]),
])
def test_on_its_own_said_as_a_request_still_acts(runner, text, expected):
    record = _route(runner, text)
    assert record.family == "ODL" and [f"{a[0]}.{a[1]}" for a in actions(record)] == expected, \
        (text, record.family, actions(record))


def test_a_benefactive_inside_a_question_not_known_asks_nothing(runner):
    record = _route(runner, "배터리 조금 남으면 안방까지 가 주는지 모르겠네")
    assert actions(record) == [] and record.family == "DQR", (record.family, actions(record))


def test_an_imperative_quoted_with_eo_rago_is_quoted(runner):
    record = _route(runner, "안방 청정해 줘라고만 해도 안방까지 알아서 가나요")
    assert actions(record) == [] and record.family == "DQR", (record.family, actions(record))
    assert any(s.startswith("quotative:") for s in record.evidence.clauses[0].speech_act.signals)
