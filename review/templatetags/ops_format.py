"""How ops pages write durations: "2 d 4 h", "3 h 12 min", "45 s", never raw seconds."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def age(seconds: float | int | None) -> str:
    if seconds is None:
        return "-"
    total = int(seconds)
    days, rest = divmod(total, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s" if minutes < 10 else f"{minutes} min"
    return f"{secs} s"
