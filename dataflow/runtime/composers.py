"""Route composers for cloud steps and the wording of device results, from evidence only.

Pure functions: they read the decision record, earlier step results and the registry's
templates, and return what to say (and, for SCH, which schedule to store). They never call a
network source: offline, FRG says plainly that it has no live source.
"""

from __future__ import annotations

from typing import Any

from registry.record_contracts import DecisionRecord
from registry.device_contracts import CompiledStep
from registry.loader import Registry
from registry.runtime_contracts import CloudStepResult, ScheduleRecord, StepReport
from registry.templates import ResponseTemplates, fill


def _names(registry: Registry) -> dict[str, str]:
    return registry.lexicon["responses"]["capability_names"]


def _answer_text(record: DecisionRecord) -> str | None:
    """The DQR answer of the record (issue 5 adds `answer: {text, ...}`), if the record carries one."""
    answer = getattr(record, "answer", None)
    if answer is None:
        return None
    text = answer.get("text") if isinstance(answer, dict) else getattr(answer, "text", None)
    return text or None


def schedule_summary(schedule: ScheduleRecord, templates: ResponseTemplates, registry: Registry) -> str:
    days = " ".join(templates.repeat_days.get(d, d) for d in schedule.repeat_days)
    when = fill(templates.time_range, {"start": schedule.start_time, "end": schedule.end_time}) if schedule.end_time else schedule.start_time
    if schedule.kind == "device_task":
        what = _names(registry).get(schedule.function or "", schedule.function or "")
    elif schedule.kind == "timer":
        what = fill(templates.duration, {"minutes": (schedule.duration_s or 0) // 60}) + " " + templates.schedule_kinds["timer"]
        when = None
    else:
        what = " ".join(p for p in (schedule.message, templates.schedule_kinds[schedule.kind]) if p)
    return " ".join(p for p in (days, when, what) if p)


_SCHEDULE_KIND = {"schedule_device_task_create": "device_task", "schedule_alarm_create": "alarm",
                  "schedule_reminder_create": "reminder", "schedule_timer_create": "timer"}


def compose_schedule(step: CompiledStep, record: DecisionRecord, workflow_id: str, clock_s: float,
                     active: list[ScheduleRecord], templates: ResponseTemplates, registry: Registry) -> CloudStepResult:
    skill = step.skill_id or record.selected_skill or ""
    t = templates.cloud
    slots = record.slots
    if record.missing_slots:
        return CloudStepResult(text=record.ask_follow_up or record.tts_response or "", status="needs_user_input",
                               reason_code="missing_slots", data={"missing_slots": record.missing_slots}, sources=["record.missing_slots"])
    if skill in _SCHEDULE_KIND:
        schedule = ScheduleRecord(
            schedule_id=f"sch-{workflow_id}-{step.step_id}", workflow_id=workflow_id, kind=_SCHEDULE_KIND[skill],  # type: ignore[arg-type]
            function=slots.get("function"), start_time=slots.get("start_time"), end_time=slots.get("end_time"),
            repeat_days=list(slots.get("repeat_days") or []), duration_s=slots.get("duration_s"), message=slots.get("message"),
            created_clock_s=clock_s,
        )
        summary = schedule_summary(schedule, templates, registry)
        return CloudStepResult(text=fill(t["SCH_created"], {"summary": summary}), schedule=schedule,
                               data={"schedule_id": schedule.schedule_id}, sources=["record.slots"])
    if skill == "schedule_cancel":
        function = slots.get("function")
        targets = [s for s in active if s.function == function] if function else active[-1:]
        if not targets:
            return CloudStepResult(text=t["SCH_nothing_to_cancel"], data={"cancelled": 0}, sources=["schedules"])
        return CloudStepResult(text=fill(t["SCH_cancelled"], {"count": len(targets)}), cancel_schedules=[s.schedule_id for s in targets],
                               data={"cancelled": len(targets)}, sources=["schedules"])
    if not active:
        return CloudStepResult(text=t["SCH_list_empty"], data={"count": 0}, sources=["schedules"])
    items = ", ".join(schedule_summary(s, templates, registry) for s in active)
    return CloudStepResult(text=fill(t["SCH_list"], {"count": len(active), "items": items}), data={"count": len(active)}, sources=["schedules"])


def compose_cloud_step(step: CompiledStep, record: DecisionRecord, inputs: dict[str, CloudStepResult | dict[str, Any]],
                       workflow_id: str, clock_s: float, active_schedules: list[ScheduleRecord],
                       templates: ResponseTemplates, registry: Registry) -> CloudStepResult:
    """The answer of one cloud step (DEF, FRG, DQR, SCH, UNS, STT_NULL)."""
    t = templates.cloud
    if step.route == "FRG":
        return CloudStepResult(text=t["FRG_offline"], data={"live_source": False, "condition_met": None}, sources=["no_live_source"])
    if step.route == "DQR":
        answer = _answer_text(record)
        if answer:
            return CloudStepResult(text=answer, data={"answered": True}, sources=["record.answer"])
        return CloudStepResult(text=t["DQR_no_index"], data={"answered": False}, sources=["no_manual_index"])
    if step.route == "SCH":
        return compose_schedule(step, record, workflow_id, clock_s, active_schedules, templates, registry)
    if step.route == "DEF" and inputs:
        texts = [v.text if isinstance(v, CloudStepResult) else describe_output(v, templates) for v in inputs.values()]
        return CloudStepResult(text=fill(t["summary_of"], {"inputs": " ".join(x for x in texts if x)}), sources=list(inputs))
    if step.route == "STT_NULL":
        return CloudStepResult(text=record.ask_follow_up or record.tts_response or "", sources=["record.ask_follow_up"])
    return CloudStepResult(text=record.tts_response or "", sources=["record.tts_response"])


def describe_output(output: dict[str, Any], templates: ResponseTemplates) -> str:
    return ", ".join(f"{k} {v}" for k, v in output.items() if not isinstance(v, (dict, list)))


def _values(report: StepReport, name: str, templates: ResponseTemplates) -> dict[str, Any]:
    out = dict(report.output)
    if "level" in out:
        out["level_ko"] = templates.levels.get(str(out["level"]), out["level"])
    if "running" in out:
        out["running_ko"] = templates.running_words.get(str(out["running"]), str(out["running"]))
    out.setdefault("name", name)
    out.setdefault("reason_code", report.reason_code)
    return out


def describe_step(report: StepReport, templates: ResponseTemplates, registry: Registry, retried: bool = False) -> str | None:
    """One sentence for a device step, from its status, reason and terminal evidence; None for nothing to say."""
    name = _names(registry).get(report.capability_id or "", report.capability_id or report.step_id)
    values = _values(report, name, templates)
    lines = []
    if retried and report.status == "completed":
        lines.append(fill(templates.retried, values))
    if report.status == "completed" and report.terminal_evidence:
        template = templates.for_evidence(report.capability_id, report.terminal_evidence, report.output)
        if template:
            lines.append(fill(template, values))
        limited = report.output.get("limited_by")
        if limited in templates.limited_by:
            lines[-1:] = [fill(templates.limited_by[limited], values)]
        return " ".join(lines) or None
    if report.status == "cancelled" and report.terminal_evidence:
        template = templates.for_evidence(report.capability_id, report.terminal_evidence, report.output)
        if template:
            return fill(template, values)
    template = templates.reasons.get(report.reason_code or "") or templates.status_fallback.get(report.status)
    return fill(template, values) if template else None
