"""A small CMDB for the service desk: business services and configuration items.

A world may give its own in ``tickets/cmdb.yaml``::

    services: [{name: Data Freshness Monitoring, group: Pipeline Ops, description: "…"}]
    cis: [{name: freshness-monitor-prod, class: Application, service: Data Freshness Monitoring,
           group: Pipeline Ops, environment: Production}]

Without one, a world whose assignment groups include every group the built-in CMDB names (a
data-observability SaaS desk: Pipeline Ops, Platform Infra, Billing Ops, Identity & Access) gets
the built-in one; any other world gets none. Seeding is deterministic (file order).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

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
    class_: Literal["Application", "Database", "Server", "Cluster"] = "Application"
    service: str | None = None
    group: str | None = None
    environment: Literal["Production", "Staging"] = "Production"
    description: str = ""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, alias_generator=None)

    def __init__(self, **data):
        if "class" in data:
            data["class_"] = data.pop("class")
        super().__init__(**data)


class CmdbFile(_M):
    services: list[ServiceSpec] = []
    cis: list[CISpec] = []


_S = [("Data Freshness Monitoring", "Pipeline Ops", "Freshness and volume monitors on customers' tables."),
      ("Pipeline Lineage", "Pipeline Ops", "The lineage graph and impact analysis."),
      ("Lumen Web App", "Platform Infra", "The customer-facing web application and API."),
      ("Alerting & Notifications", "Platform Infra", "Alert routing to Slack, PagerDuty, email and webhooks."),
      ("Billing & Invoicing", "Billing Ops", "Subscriptions, usage metering and invoices."),
      ("Identity & SSO", "Identity & Access", "Sign-in, SAML/OIDC single sign-on and API tokens.")]
_C = [("freshness-monitor-prod", "Application", "Data Freshness Monitoring", "Production"),
      ("freshness-monitor-staging", "Application", "Data Freshness Monitoring", "Staging"),
      ("freshness-scheduler", "Application", "Data Freshness Monitoring", "Production"),
      ("monitor-results-db", "Database", "Data Freshness Monitoring", "Production"),
      ("lineage-graph-api", "Application", "Pipeline Lineage", "Production"),
      ("lineage-graph-db", "Database", "Pipeline Lineage", "Production"),
      ("lineage-graph-api-staging", "Application", "Pipeline Lineage", "Staging"),
      ("lumen-web-prod", "Application", "Lumen Web App", "Production"),
      ("lumen-api-gateway", "Application", "Lumen Web App", "Production"),
      ("k8s-prod-us-east-1", "Cluster", "Lumen Web App", "Production"),
      ("k8s-prod-eu-west-1", "Cluster", "Lumen Web App", "Production"),
      ("alert-dispatcher", "Application", "Alerting & Notifications", "Production"),
      ("webhook-gateway", "Application", "Alerting & Notifications", "Production"),
      ("billing-invoicer", "Application", "Billing & Invoicing", "Production"),
      ("usage-metering", "Application", "Billing & Invoicing", "Production"),
      ("billing-db", "Database", "Billing & Invoicing", "Production"),
      ("auth-service-prod", "Application", "Identity & SSO", "Production"),
      ("auth-service-staging", "Application", "Identity & SSO", "Staging"),
      ("saml-connector", "Application", "Identity & SSO", "Production")]


def builtin() -> CmdbFile:
    group = {n: g for n, g, _ in _S}
    return CmdbFile(services=[ServiceSpec(name=n, group=g, description=d) for n, g, d in _S],
                    cis=[CISpec(name=n, class_=c, service=s, group=group[s], environment=e) for n, c, s, e in _C])


def seed_cmdb(store: Store, spec: CmdbFile | None, group_ids: dict[str, int], where: str = "cmdb") -> None:
    """Insert the services then the CIs; ``spec`` None = the built-in CMDB when the world's groups fit it."""
    if spec is None:
        spec = builtin()
        if not {s.group for s in spec.services} <= set(group_ids):
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
