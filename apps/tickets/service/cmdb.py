"""The CMDB: business services and configuration items (``tk_cis``), referenced by incidents and
changes (Service, Configuration item).
"""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.core.store.db import Store

SERVICE = "Business Service"
CI_CLASSES = ("Application", "Database", "Server", "Cluster")


def ci_name(store: Store, ci_id: int | None) -> str:
    if not ci_id:
        return ""
    row = store.get("tk_cis", ci_id)
    return row["name"] if row else ""


def cis(store: Store, q: str = "", *, services: bool = False, service: int | None = None) -> list[dict]:
    """Services (``services=True``) or configuration items, name order; ``q`` keeps the names that
    contain it; ``service`` keeps the CIs of that business service."""
    q = (q or "").strip().lower()
    out = []
    for row in store.select("tk_cis", order="name"):
        if (row["sys_class"] == SERVICE) != services:
            continue
        if service and row["service"] != service:
            continue
        if q and q not in row["name"].lower():
            continue
        row["service_name"] = ci_name(store, row["service"])
        out.append(row)
    return out


def resolve_ci(store: Store, value: object, field: str = "cmdb_ci") -> int | None:
    """A CI (or, for ``business_service``, a service) id from its id or exact name; "" → None."""
    if value in (None, ""):
        return None
    services = field == "business_service"
    what = "business service" if services else "configuration item"
    row = None
    if as_id(value) is not None:
        row = store.get("tk_cis", as_id(value))
    else:
        found = store.all("SELECT id FROM tk_cis WHERE lower(name)=?", (str(value).strip().lower(),))
        row = store.get("tk_cis", found[0][0]) if found else None
    if row is None or (row["sys_class"] == SERVICE) != services:
        raise Invalid(f"“{value}” is not a {what} in the CMDB: pick one from the list.", field)
    return row["id"]
