"""Property tests of the plans the DAG produces.

(a) Random Korean commands stitched from registry-relevant fragments: every plan is
    well-formed (registered capabilities and operations, arguments in range, ordered
    dependencies, coherent flow id, step routes inside the selected routes, consent
    before every photo).
(b) Arbitrary unicode text never raises and always yields a record with a family.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from registry.contracts import FAMILIES, DeviceContext, VoiceContext
from registry.plan_contracts import StepOutputCondition
from registry.record_contracts import DecisionRecord

PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, database=None)




# --- strategies ----------------------------------------------------------------------------

ROOMS = ["거실", "안방", "주방", "부엌", "서재"]
ROOM_PARTICLES = ["", "로", "에", "에서", "은"]
ACTIONS = [
    "가서",
    "청정해줘",
    "꺼줘",
    "풍량 강으로",
    "공기 상태 확인하고",
    "필요하면",
    "배터리 충분하면",
    "사진 찍어줘",
    "유튜브 틀어줘",
    "매일 오후 6시에",
    "고정청정 예약해줘",
]
CONNECTIVES = ["하고", "그리고", ","]

room_fragment = st.builds(lambda room, particle: room + particle, st.sampled_from(ROOMS), st.sampled_from(ROOM_PARTICLES))
fragment = st.one_of(room_fragment, st.sampled_from(ACTIONS), st.sampled_from(CONNECTIVES))


@st.composite
def korean_commands(draw) -> str:
    parts = draw(st.lists(fragment, min_size=1, max_size=10))
    seps = draw(st.lists(st.sampled_from([" ", " ", " ", ""]), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps)).strip()


# --- invariants ----------------------------------------------------------------------------


def check_plan(rec: DecisionRecord, reg) -> None:
    assert rec.error is None, f"error record: {rec.error}"
    assert rec.family in FAMILIES

    # flow id coherent and in the catalog
    assert rec.selected_flow_id == f"{rec.family}.{rec.selected_agent}.{rec.selected_skill}", (
        f"flow id {rec.selected_flow_id!r} vs {rec.family}.{rec.selected_agent}.{rec.selected_skill}"
    )
    assert rec.selected_flow_id in reg.flow_by_id, f"flow {rec.selected_flow_id!r} not in the catalog"
    assert rec.selected_routes and rec.selected_routes[0] == rec.family, f"routes {rec.selected_routes} vs family {rec.family}"

    earlier: list[str] = []
    capability_order: list[str] = []
    for step in rec.steps:
        assert step.route in rec.selected_routes, f"{step.id} route {step.route} not in {rec.selected_routes}"
        for dep in step.depends_on:
            assert dep in earlier, f"{step.id} depends_on {dep}, not an earlier step of {earlier}"
        if isinstance(step.condition, StepOutputCondition):
            assert step.condition.step_id in earlier, f"{step.id} condition reads {step.condition.step_id}, not an earlier step"
        if step.action is not None:
            cap = reg.capability_by_id.get(step.action.capability_id)
            assert cap is not None, f"{step.id}: unknown capability {step.action.capability_id!r}"
            op = cap.operation(step.action.operation_id)
            assert op is not None, f"{step.id}: unknown operation {cap.capability_id}.{step.action.operation_id}"
            for name, value in step.action.arguments.items():
                spec = op.arguments.get(name)
                assert spec is not None, f"{step.id}: {cap.capability_id}.{op.operation_id} has no argument {name!r}"
                if spec.type == "integer":
                    assert isinstance(value, int) and not isinstance(value, bool)
                    assert spec.minimum is None or value >= spec.minimum, f"{step.id}: {name}={value} < {spec.minimum}"
                    assert spec.maximum is None or value <= spec.maximum, f"{step.id}: {name}={value} > {spec.maximum}"
                if spec.type == "room":
                    assert isinstance(value, str) and reg.resolve_room(value) is not None, f"{step.id}: unregistered room {value!r}"
            if step.action.capability_id == "take_photo":
                assert "request_consent" in capability_order, f"{step.id}: take_photo with no request_consent step before it"
                assert step.condition is not None, f"{step.id}: take_photo without a condition (consent guard)"
            capability_order.append(step.action.capability_id)
        earlier.append(step.id)
    assert len(set(earlier)) == len(earlier), f"duplicate step ids {earlier}"


# --- properties ----------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(text=korean_commands())
def test_random_korean_commands_give_well_formed_plans(runner, reg, text):
    rec = runner.route_text(text, device_context=DeviceContext(), voice_context=VoiceContext())
    check_plan(rec, reg)


@PROPERTY_SETTINGS
@given(text=korean_commands(), battery=st.floats(0, 100), privacy=st.booleans(), night=st.booleans())
def test_random_korean_commands_under_random_device_state(runner, reg, text, battery, privacy, night):
    ctx = DeviceContext(battery_percent=battery, privacy_mode=privacy, night_mode=night)
    rec = runner.route_text(text, device_context=ctx, voice_context=VoiceContext())
    check_plan(rec, reg)


@PROPERTY_SETTINGS
@given(text=st.text(max_size=200))
def test_arbitrary_unicode_never_raises(runner, reg, text):
    rec = runner.route_text(text, device_context=DeviceContext(), voice_context=VoiceContext())
    assert isinstance(rec, DecisionRecord)
    assert rec.family in FAMILIES
    check_plan(rec, reg)
