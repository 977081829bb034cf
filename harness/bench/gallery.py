"""Screenshots of every app for the README: ``deskworld screenshots``.

Each shot is a fresh page on a freshly restored slot, so reruns give the
same pictures.
"""
from __future__ import annotations

from pathlib import Path

SHOTS = [
    # (file, world, path, actions) — actions run before the shot
    ("mail-inbox.png", "meridian", "/mail/inbox", []),
    ("mail-thread.png", "meridian", "/mail/search?q=from:sofia+subject:%22final+survey+report%22",
     [("click_text", "Final survey report"), ("click_text", "Calder Marine Surveys' FINAL survey report")]),
    ("mail-compose.png", "meridian", "/mail/inbox", [("click_role", "button", "Compose"), ("fill_label", "To recipients", "jonathan"), ("wait_role", "option", "Jonathan Pryce")]),
    ("drive-folder.png", "meridian", "/drive/shared", [("dblclick_text", "Corvane – Aurelia Dawn (M-2026-0147)")]),
    ("docs-list.png", "meridian", "/docs/", []),
    ("docs-editor.png", "meridian", "/drive/search?q=claim+in+limitation+draft+v2",
     [("dblclick_text", "Corvane Claim in Limitation – DRAFT v2"), ("wait_text", "CLAIM AND ANSWER")]),
    ("sheets-editor.png", "meridian", "/drive/search?q=damages+model",
     [("dblclick_text", "Damages Model – Aurelia Dawn"), ("wait_role", "grid", "Claims"), ("click_text", "$6,840,000.00")]),
    ("slides-editor.png", "meridian", "/drive/search?q=client+update",
     [("dblclick_text", "Client Update – Aurelia Dawn (April 2026)"), ("wait_role", "listbox", "Slides"),
      ("click_role", "option", "Slide 4: The claims picture")]),
    ("slides-present.png", "meridian", "/drive/search?q=client+update",
     [("dblclick_text", "Client Update – Aurelia Dawn (April 2026)"), ("wait_role", "listbox", "Slides"),
      ("click_role", "option", "Slide 3: Halcyon's limit vs. the fund it put up"), ("wait_role", "textbox", "Title"),
      ("click_role", "link", "Present slideshow"), ("wait_role", "region", "Slideshow: Client Update – Aurelia Dawn (April 2026)")]),
    ("chat-channel.png", "meridian", "/chat/", [("click_role", "link", "# corvane-aurelia-dawn")]),
    ("chat-thread.png", "meridian", "/chat/", [("click_role", "link", "# corvane-aurelia-dawn"),
                                               ("click_role", "button", "3 replies Last reply Thursday, March 12th at 10:06 AM")]),
    ("calendar-week.png", "meridian", "/calendar/week/2026-04-06", []),
    ("calendar-event.png", "meridian", "/calendar/week/2026-04-20",
     [("click_role", "link", "Moot hearing — limitation fund, 2"), ("wait_role", "button", "Yes")]),
    ("calendar-month.png", "meridian", "/calendar/month/2026-04-06", []),
    ("crm-pipeline.png", "lumen", "/crm/pipeline", []),
    ("crm-opportunity.png", "lumen", "/crm/search?q=FY27+Renewal", [("click_role", "link", "Harrowgate – FY27 Renewal")]),
    ("crm-list.png", "lumen", "/crm/o/opportunities", []),
    ("tickets-incident.png", "lumen", "/tickets/incident/INC0010421", []),
    ("tickets-list.png", "lumen", "/tickets/incident?quick=open", []),
    ("drive-preview.png", "meridian", "/drive/search?q=final+survey+report", [("dblclick_text", "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")]),
    # halden: Project Juniper, a sell-side M&A data room
    ("chat-emoji.png", "meridian", "/chat/", [("click_role", "link", "# corvane-aurelia-dawn"),
                                              ("click_role", "button", "Emoji"), ("wait_role", "dialog", "Emoji picker")]),
    ("crm-kanban.png", "lumen", "/crm/o/opportunities?view=open&display=kanban", []),
    ("crm-reports.png", "lumen", "/crm/reports", []),
    ("drive-grid-details.png", "lumen", "/drive/my-drive", [("click_role", "button", "Grid layout"), ("click_text", "RevOps"),
                                                            ("click_role", "button", "View details"),
                                                            ("wait_role", "tab", "Activity")]),
    ("halden-mail.png", "halden", "/mail/inbox", []),
    ("halden-drive.png", "halden", "/drive/shared", [("dblclick_text", "Project Juniper – VDR")]),
    ("halden-sheets.png", "halden", "/drive/search?q=juniper+model+v7",
     [("dblclick_text", "Juniper Model v7"), ("wait_role", "grid", "Summary")]),
    ("halden-docs.png", "halden", "/drive/search?q=CIM+v4",
     [("dblclick_text", "CIM v4 (2026-03-16)"), ("wait_text", "Executive summary")]),
    ("halden-slides.png", "halden", "/drive/search?q=board+update",
     [("dblclick_text", "Board Update – Project Juniper (2026-05-13) DRAFT"), ("wait_role", "listbox", "Slides"),
      ("click_role", "option", "Slide 6: Valuation football field (enterprise value, $m)")]),
    ("slides-theme.png", "halden", "/drive/search?q=board+update",
     [("dblclick_text", "Board Update – Project Juniper (2026-05-13) DRAFT"), ("wait_role", "listbox", "Slides"),
      ("click_role", "option", "Slide 6: Valuation football field (enterprise value, $m)"),
      ("click_role", "button", "Theme"), ("click_role", "menuitemradio", "Simple Dark"), ("wait_text", "Theme: Simple Dark.")]),
    ("halden-chat.png", "halden", "/chat/", [("click_role", "link", "juniper-deal-team")]),
    ("halden-calendar.png", "halden", "/calendar/week/2026-05-25", []),
    ("halden-crm.png", "halden", "/crm/o/opportunities", []),
    ("halden-tickets.png", "halden", "/tickets/request", []),
]


def take(out_dir: Path, only: list[str] | None = None) -> list[Path]:
    from playwright.sync_api import sync_playwright

    from apps import create_app
    from harness.env.browser import context_args, launch_args
    from harness.env.appserver import AppServer

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    apps = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_args())
        try:
            for name, world, path, actions in SHOTS:
                if only and name not in only:
                    continue
                if world not in apps:
                    app = create_app({"WORLD": world})
                    apps[world] = AppServer(app).start()
                server = apps[world]
                server.app.config["SLOT"].restore()
                ctx = browser.new_context(**context_args(), base_url=server.url)
                ctx.add_cookies([server.cookie(_user(server))])
                page = ctx.new_page()
                page.goto(path)
                for act in actions:
                    _do(page, act)
                page.wait_for_load_state("networkidle")
                target = out_dir / name
                page.screenshot(path=str(target), animations="disabled", caret="hide")
                written.append(target)
                ctx.close()
        finally:
            browser.close()
            for s in apps.values():
                s.stop()
    return written


def _user(server) -> str:
    with server.app.config["SLOT"].store() as store:
        return store.meta("default_user")


def _do(page, act) -> None:
    kind, *args = act
    if kind == "click_text":
        page.get_by_text(args[0]).first.click()
    elif kind == "dblclick_text":
        page.get_by_text(args[0], exact=True).first.dblclick()
    elif kind == "click_role":
        page.get_by_role(args[0], name=args[1]).first.click()
    elif kind == "fill_label":
        page.get_by_label(args[0]).first.press_sequentially(args[1])
    elif kind == "wait_role":
        page.get_by_role(args[0], name=args[1]).first.wait_for()
    elif kind == "wait_text":
        page.get_by_text(args[0]).first.wait_for()
    page.wait_for_load_state("networkidle")


def filmstrip(out_dir: Path, task_id: str = "meridian/send-survey-to-pryce", columns: int = 4,
              file: str = "episode-filmstrip.png") -> Path:
    """One oracle episode as a grid of the screens the agent saw, step by step."""
    import json
    import tempfile

    from PIL import Image, ImageDraw

    from harness.runs.runner import run
    from harness.tasks.registry import load_task
    with tempfile.TemporaryDirectory() as tmp:
        run("oracle", [load_task(task_id)], out=tmp, progress=False)
        world, name = task_id.split("/", 1)
        ep = Path(tmp) / "episodes" / world / name / "0"
        steps = [json.loads(line) for line in (ep / "steps.jsonl").read_text().splitlines()]
        frames = [(0, "start", ep / "screens" / "0000.png")]
        frames += [(s["step"], _label(s["action"]), ep / s["screenshot"]) for s in steps if s.get("screenshot")]
        picks = frames[:: max(1, len(frames) // (columns * 2))][: columns * 2 - 1] + frames[-1:]
        tw, th, pad, cap = 480, 300, 12, 26
        rows = -(-len(picks) // columns)
        sheet = Image.new("RGB", (columns * (tw + pad) + pad, rows * (th + cap + pad) + pad), (246, 248, 252))
        draw = ImageDraw.Draw(sheet)
        from harness.runs.media import roboto
        font = roboto(15)
        for i, (n, label, path) in enumerate(picks):
            x = pad + (i % columns) * (tw + pad)
            y = pad + (i // columns) * (th + cap + pad)
            sheet.paste(Image.open(path).convert("RGB").resize((tw, th)), (x, y + cap))
            draw.text((x, y + 6), f"{n:>2}  {label}"[:78], fill=(31, 31, 31), font=font)
        target = out_dir / file
        sheet.save(target, optimize=True)
        return target


# The editors' features, each as the last screen of a task's oracle episode: what an agent sees when
# it has done the work (file -> task).
TASK_SHOTS = {
    "sheets-filter-view.png": "halden/on-time-ioi-view",
    "sheets-filter.png": "lumen/pipeline-filter-miguel-late-stage",
    "docs-suggesting.png": "meridian/settlement-suggest-subordination",
    "docs-table.png": "meridian/hearing-exhibit-table",
    "sheets-chart.png": "meridian/damages-claims-chart",
    "slides-objects.png": "meridian/client-update-grounding-slide",
    "sheets-conditional.png": "meridian/billing-long-entries",
    "crm-report.png": "lumen/q3-pipeline-by-rep-report",
    "tickets-canceled.png": "lumen/withdraw-brightvault-history-ticket",
    "calendar-series.png": "meridian/focus-time-afternoons",
    "chat-later.png": "lumen/save-meadowline-addon-unread-quarry",
    "mail-forward.png": "meridian/forward-tourism-data-to-sofia",
}


def task_shots(out_dir: Path, only: list[str] | None = None) -> list[Path]:
    """The last screen of each ``TASK_SHOTS`` task's oracle episode, as the gallery's picture of a feature."""
    import json
    import shutil
    import tempfile

    from harness.runs.runner import run
    from harness.tasks.registry import load_task
    shots = {f: t for f, t in TASK_SHOTS.items() if not only or f in only}
    if not shots:
        return []
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        run("oracle", [load_task(t) for t in shots.values()], out=tmp, progress=False)
        for file, task_id in shots.items():
            world, name = task_id.split("/", 1)
            ep = Path(tmp) / "episodes" / world / name / "0"
            steps = [json.loads(line) for line in (ep / "steps.jsonl").read_text().splitlines()]
            last = [s["screenshot"] for s in steps if s.get("screenshot")][-1]
            target = out_dir / file
            shutil.copyfile(ep / last, target)
            written.append(target)
    return written


def _label(action: dict) -> str:
    from harness.runs.media import action_label
    return action_label(action)


def viewer_shots(out_dir: Path, task_id: str = "meridian/answer-laura-deductible") -> list[Path]:
    """The viewer over a one-episode oracle run: the run page and the episode page mid-scrub."""
    import tempfile

    from playwright.sync_api import sync_playwright

    from harness.env.browser import launch_args
    from harness.runs.runner import run
    from harness.env.appserver import AppServer
    from harness.tasks.registry import load_task
    from harness.viewer import create_viewer
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        others = ["meridian/gross-tonnage", "meridian/hearing-date", "meridian/eleanor-pin-request"]
        run("oracle", [load_task(t) for t in [task_id, *others]], out=tmp, progress=False)
        world, name = task_id.split("/", 1)
        with AppServer(create_viewer(tmp)) as srv, sync_playwright() as pw:
            browser = pw.chromium.launch(**launch_args())
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                for file, path in (("viewer-run.png", "/"),
                                   ("viewer-episode.png", f"/episode/{world}/{name}/0#step=8")):
                    page.goto(srv.url + path)
                    page.wait_for_load_state("networkidle")
                    target = out_dir / file
                    page.screenshot(path=str(target), animations="disabled", caret="hide")
                    written.append(target)
            finally:
                browser.close()
    return written


def record_shots(out_dir: Path, task_id: str = "lumen/lineage-addon-agreed-amount") -> list[Path]:
    """``deskworld record``'s page: a task waiting for the person's first action, and a verdict."""
    import tempfile
    import threading

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from harness.env.browser import launch_args
    from harness.human.recording import Recording
    from harness.human.server import create_record_app
    from harness.tasks.registry import load_task
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        rec = Recording([load_task(task_id), load_task("meridian/dm-third-party-total")], "ana", Path(tmp))
        rec.prepare()
        server = make_server("127.0.0.1", 0, create_record_app(rec.live, name="ana"), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        rec.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(**launch_args())
                try:
                    page = browser.new_page(viewport={"width": 1720, "height": 1000})
                    page.goto(f"http://127.0.0.1:{server.server_port}/")
                    page.wait_for_selector("body[data-idle=true]", timeout=60_000)
                    for file, then in (("record-task.png", "done"), ("record-verdict.png", None)):
                        target = out_dir / file
                        page.screenshot(path=str(target), animations="disabled", caret="hide")
                        written.append(target)
                        if then == "done":
                            page.get_by_role("button", name="Done", exact=True).click()
                            page.wait_for_selector("#verdict:not([hidden])", timeout=60_000)
                finally:
                    browser.close()
        finally:
            rec.stop()
            server.shutdown()
    return written


# One screenshot per appearance variant beyond the default (harness.env.variant): what an agent sees of
# the same first screen of a task on each. file -> (the variant's text, the task).
VARIANT_TASK = "meridian/forward-tourism-data-to-sofia"          # starts in the inbox
ARRANGED_TASK = "meridian/ask-sofia-latest-survey"               # starts in chat: its sidebar is arranged
LOCALE_TASK = "meridian/focus-time-afternoons"                  # starts in the calendar: hours, dates, times
VARIANT_SHOTS = {
    "variant-default.png": ("default", VARIANT_TASK),
    "variant-viewport-1024x768.png": ("viewport=1024x768", VARIANT_TASK),
    "variant-viewport-1920x1080.png": ("viewport=1920x1080", VARIANT_TASK),
    "variant-scale-2.png": ("scale=2", VARIANT_TASK),
    "variant-zoom-1.5.png": ("zoom=1.5", VARIANT_TASK),
    "variant-theme-dark.png": ("theme=dark", VARIANT_TASK),
    "variant-density-compact.png": ("density=compact", VARIANT_TASK),
    "variant-chat-default.png": ("default", ARRANGED_TASK),
    "variant-shuffle-3.png": ("shuffle=3", ARRANGED_TASK),
    "variant-calendar-default.png": ("default", LOCALE_TASK),
    "variant-locale-en-GB.png": ("locale=en-GB", LOCALE_TASK),
    "variant-locale-de-DE.png": ("locale=de-DE", LOCALE_TASK),
}


def variant_shots(out_dir: Path, only: list[str] | None = None) -> list[Path]:
    """The first screen of a task on each of ``VARIANT_SHOTS``' variants, as DeskEnv shows it."""
    from harness.env import DeskEnv
    from harness.tasks.registry import load_task
    shots = {f: v for f, v in VARIANT_SHOTS.items() if not only or f in only}
    if not shots:
        return []
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with DeskEnv(VARIANT_TASK, variant="any") as env:
        for file, (variant, task_id) in shots.items():
            env.reset(options={"task": load_task(task_id), "variant": None if variant == "default" else variant})
            target = out_dir / file
            target.write_bytes(env.unwrapped.session.last_png())
            written.append(target)
    return written
