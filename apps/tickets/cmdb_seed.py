"""A small CMDB for the service desk: business services and configuration items.

A world may give its own in ``tickets/cmdb.yaml``::

    services: [{name: Data Freshness Monitoring, group: Pipeline Ops, description: "…"}]
    cis: [{name: freshness-monitor-prod, class: Application, service: Data Freshness Monitoring,
           group: Pipeline Ops, environment: Production}]

Without one, the desk has no CMDB (Service and Configuration item stay empty). Seeding is
deterministic (file order).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from apps.core.store.db import SYSTEM, Store
from apps.core.world import WorldError


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ServiceSpec(_M):
    name: str
    group: str | None = None
    description: str = ""


class CISpec(_M):
    name: str
    class_: Literal["Application", "Database", "Server", "Cluster"] = Field("Application", alias="class")
    service: str | None = None
    group: str | None = None
    environment: Literal["Production", "Staging"] = "Production"
    description: str = ""


class CmdbFile(_M):
    services: list[ServiceSpec] = []
    cis: list[CISpec] = []


def seed_cmdb(store: Store, spec: CmdbFile | None, group_ids: dict[str, int], where: str = "cmdb") -> None:
    """Insert the services then the CIs (none when the world has no ``tickets/cmdb.yaml``)."""
    if spec is None:
        return
    ids: dict[str, int] = {}

    def gid(name, at):
        if name is None:
            return None
        if name not in group_ids:
            raise WorldError(f"{where}: {at}.group: {name!r} is not a group in groups.yaml")
        return group_ids[name]

    for i, s in enumerate(spec.services):
        if s.name.lower() in ids:
            raise WorldError(f"{where}: services.{i}.name: duplicate {s.name!r}")
        ids[s.name.lower()] = store.insert("tk_cis", SYSTEM, name=s.name, sys_class="Business Service", service=None,
                                           support_group=gid(s.group, f"services.{i}"), environment="Production",
                                           description=s.description)
    services = dict(ids)
    for i, c in enumerate(spec.cis):
        if c.name.lower() in ids:
            raise WorldError(f"{where}: cis.{i}.name: duplicate {c.name!r}")
        if c.service and c.service.lower() not in services:
            raise WorldError(f"{where}: cis.{i}.service: {c.service!r} is not a service in the file")
        ids[c.name.lower()] = store.insert(
            "tk_cis", SYSTEM, name=c.name, sys_class=c.class_, service=services[c.service.lower()] if c.service else None,
            support_group=gid(c.group, f"cis.{i}"), environment=c.environment, description=c.description)
