"""The records a reference field of the Service Desk's forms can take (ServiceNow's type-ahead and
"Look up value" list): Caller, Account, Assignment group, Assigned to (only the group's members once a
group is chosen), Service and Configuration item (only the service's CIs once a service is chosen).
"""
from __future__ import annotations

from apps.core.errors import NotFound
from apps.core.ids import as_id
from apps.core.store.db import Store
from apps.tickets.service.cmdb import cis
from apps.tickets.service.people import contact_name, group_name, groups, has_table, members, person_name

def ref_options(st: Store, what: str, q: str, group: str = "", service: str = "") -> list[dict]:
    """Matching records for a reference field (``what``: caller, account, group, assignee, service, ci):
    ``{id, name, sub, cols}``, best matches first;
    an Assigned to offers the members of ``group`` (an id) when given, a Configuration item the CIs of
    ``service``."""
    q = (q or "").strip().lower()
    out: list[dict] = []
    if what == "caller":
        for p in st.select("people", order="name"):
            if not q or q in p["name"].lower() or q in p["email"].lower() or q in p["slug"]:
                out.append({"id": p["slug"], "name": p["name"], "sub": p["email"], "cols": [p["email"], p.get("title") or ""]})
        if has_table(st, "crm_contacts"):
            people = {o["id"] for o in out}
            for c in st.select("crm_contacts", order="last_name, first_name"):
                name = contact_name(c)
                if c["slug"] in people:
                    continue
                if not q or q in name.lower() or q in (c.get("email") or "").lower() or q in c["slug"]:
                    out.append({"id": c["slug"], "name": name, "sub": f"{c.get('email') or ''} · CRM contact",
                                "cols": [c.get("email") or "", "CRM contact"]})
    elif what == "account":
        if has_table(st, "crm_accounts"):
            for a in st.select("crm_accounts", order="name"):
                if not q or q in a["name"].lower() or q in a["slug"]:
                    out.append({"id": a["slug"], "name": a["name"], "sub": a.get("industry") or "",
                                "cols": [a.get("industry") or ""]})
        else:
            for o in st.select("orgs", order="name"):
                if not q or q in o["name"].lower() or q in o["slug"]:
                    out.append({"id": o["slug"], "name": o["name"], "sub": o["domain"], "cols": [o["domain"]]})
    elif what == "group":
        for grp in groups(st):
            if not q or q in grp["name"].lower():
                mgr = person_name(st, grp["manager"])
                out.append({"id": str(grp["id"]), "name": grp["name"], "sub": f"Manager: {mgr}" if mgr else "",
                            "members": " ".join(grp["members"]), "cols": [mgr, grp["description"]]})
    elif what == "assignee":
        gid = as_id(group)
        slugs = members(st, gid) if gid else sorted({m for grp in groups(st) for m in grp["members"]})
        for slug in slugs:
            p = st.decode("people", st.one("SELECT * FROM people WHERE slug=?", (slug,)))
            if p and (not q or q in p["name"].lower() or q in p["email"].lower()):
                out.append({"id": slug, "name": p["name"], "sub": p.get("title") or p["email"],
                            "cols": [p["email"], p.get("title") or ""]})
    elif what in ("service", "ci"):
        sid = as_id(service) if what == "ci" else None
        for row in cis(st, q, services=what == "service", service=sid):
            grp = group_name(st, row["support_group"])
            sub = grp if what == "service" else f"{row['sys_class']} · {row['service_name']} · {row['environment']}"
            out.append({"id": str(row["id"]), "name": row["name"], "sub": sub,
                        "cols": [grp] if what == "service" else [row["sys_class"], row["service_name"],
                                                                  row["environment"], grp]})
    else:
        raise NotFound(f"No reference field looks up {what!r}.")
    out.sort(key=lambda o: (not o["name"].lower().startswith(q), o["name"].lower()))
    return out
