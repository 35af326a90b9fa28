"""The Home page's parts: starting an indexing job, its live progress panel, and the table of indexes."""

from __future__ import annotations

import streamlit as st

from codeqa.answer import escape_markdown, safe_markdown
from codeqa.errors import CodeqaError
from codeqa.index import STAGES, IndexReport
from codeqa.languages import largest_first
from codeqa.store import Manifest
from codeqa_ui import components as ui
from codeqa_ui import frame, nav, state
from codeqa_ui.jobs import IndexJob

# Chunking, embedding and storing run batch by batch, interleaved: one row, so one spinner at a time.
ROWS = (
    ("Fetch the source", ("clone",)),
    ("Scan files", ("scan",)),
    ("Split, embed and store the chunks", ("chunk", "embed", "store")),
)
STAGE_ICONS = {
    "done": ":green[:material/check_circle:]",
    "running": ":blue[:material/progress_activity:]",
    "stopped": ":red[:material/cancel:]",
    "pending": ":gray[:material/radio_button_unchecked:]",
}
CONFIRM_KEY = "confirm_delete"


def render() -> None:
    """Home: a form to index a repository, the live progress of a running job, and the table of indexes."""
    frame.page("Home", ":material/map:", sidebar=False)
    st.title(":material/map: codeqa")
    st.caption("A private, local map of any codebase: index it, ask it questions, explore its structure.")
    with st.form("index_form"):
        source = st.text_input(
            "Repository", placeholder="https://github.com/owner/repo  ·  owner/repo  ·  /path/to/a/local/repo"
        )
        ref_col, token_col, name_col = st.columns(3)
        ref = ref_col.text_input("Branch, tag or commit", placeholder="default branch")
        token = token_col.text_input(
            "Access token",
            type="password",
            placeholder="only for private repositories",
            key="token",
            help="Used for this clone only; kept in this browser session, never written to disk.",
        )
        name = name_col.text_input("Index name", placeholder="derived from the source")
        started = True
        if st.form_submit_button("Index", type="primary"):
            started = start(source, ref=ref, token=token, name=name)
    progress_panel(show_outcome=started)  # a new error replaces the last outcome: never two red boxes
    st.subheader("Indexed repositories")
    index_table(token=st.session_state.get("token", ""))


def seconds(value: float) -> str:
    value = int(round(value))
    return f"{value // 60} min {value % 60:02d} s" if value >= 60 else f"{value} s"


def start(source: str, *, ref: str = "", token: str = "", name: str = "", update: bool = False) -> bool:
    """Validate the input here (instant feedback), then index in the background; False (and the error) if refused."""
    try:
        state.jobs().start(source.strip(), state.settings(), name=name.strip() or None, ref=ref.strip(),
                           token=token, update=update, owner=state.session_id())  # fmt: skip
    except CodeqaError as exc:
        st.error(safe_markdown(str(exc)), icon=":material/error:")
        return False
    return True


def row_state(job: IndexJob, stages: tuple[str, ...]) -> str:
    """``done``, ``running``, ``stopped`` or ``pending`` for one row of the panel (at most one row runs)."""
    if job.report is not None:
        return "done"
    order = list(STAGES)
    current = order.index(job.stage) if job.stage in order else 0
    if job.stage in stages:
        return "running" if job.running else "stopped"
    return "done" if max(order.index(stage) for stage in stages) < current else "pending"


def _stages(job: IndexJob) -> str:
    """Draw the rows; returns what the running row is doing (for the progress bar's text)."""
    doing = ""
    for label, stages in ROWS:
        status = row_state(job, stages)
        messages = [job.events[stage].message for stage in stages if stage in job.events]
        detail = " · ".join(messages) if status != "pending" else ""
        st.markdown(f"{STAGE_ICONS[status]} **{label}**" + (f" — {escape_markdown(detail)}" if detail else ""))
        if status == "running":
            doing = label.lower()
    return doing


def _outcome(job: IndexJob) -> None:
    if job.report is not None:
        report = job.report
        st.success(
            f"Indexed **{report.manifest.name}**: {report.files:,} files, {report.lines:,} lines, "
            f"{report.chunks:,} chunks ({report.embedded:,} newly embedded"
            + (f", {report.carried:,} carried over unchanged" if report.carried else "")
            + f") in {seconds(job.elapsed)}.",
            icon=":material/check_circle:",
        )
        if report.skipped:
            skipped = ", ".join(f"{count} {reason}" for reason, count in report.skipped.items())
            with st.expander(f"Skipped files: {skipped}"):
                skipped_list(report)
        for notice in report.notices:  # e.g. a damaged embedding cache was rebuilt
            st.info(safe_markdown(notice), icon=":material/info:")
        if job.prepared is None and job.prepare_error is None:
            st.caption("Laying out the map and the overview in the background; Chat works already.")
        elif job.prepare_error:
            st.caption(
                safe_markdown(f"The map could not be laid out ({job.prepare_error}); the Map page will try again.")
            )
        if st.button("Ask it a question →", type="primary"):
            st.session_state[state.REPO_KEY] = report.manifest.name
            st.switch_page(nav.CHAT)
    elif job.cancelled:
        st.warning(
            "Indexing was cancelled. Any previous index of this repository is unchanged.", icon=":material/stop_circle:"
        )
    elif job.error:
        st.error(safe_markdown(job.error), icon=":material/error:")


def skipped_list(report: IndexReport) -> None:
    """Every skipped file (a skipped folder once, ending in "/") with the reason, grouped by reason."""
    rows = [{"Reason": item.reason.value, "Path": item.path} for item in report.skipped_files]
    rows.sort(key=lambda row: (row["Reason"], row["Path"]))
    st.dataframe(rows, hide_index=True, width="stretch", height=min(400, 38 + 35 * len(rows)))
    st.caption(
        "unsupported-type: not a language codeqa reads · vendored: dependencies and build output · gitignored: "
        "ignored by .gitignore · generated-docs: a documentation generator's output (Dokka, Javadoc, Sphinx …) · "
        "binary, minified, generated, lockfile, too-large: not worth embedding."
    )


def progress_panel(*, show_outcome: bool = True) -> None:
    """This session's job: live progress (polled once a second), then its outcome. A job started in another tab is
    shown while it runs; once finished, its outcome (say, "Could not reach github.com") stays with the tab that
    started it, and its index is in the table: a new tab never greets its user with an old failure."""
    registry = state.jobs()
    mine = registry.latest(state.session_id())
    last = registry.latest()
    if last is not None and last is not mine and last.running:
        _live(last, own=False)
    if mine is None:
        return
    if mine.running:
        _live(mine, own=True)
    elif show_outcome:
        _outcome(mine)
        _pick_new_index(mine)


def _pick_new_index(job: IndexJob) -> None:
    """Once per job: the index just made is the one "Manage an index" offers (set before the picker is drawn)."""
    if job.report is not None and st.session_state.get("_picked_for") != job.id:
        st.session_state["_picked_for"] = job.id
        st.session_state["manage_name"] = job.report.manifest.name


def _live(job: IndexJob, *, own: bool) -> None:
    @st.fragment(run_every=1.0)
    def live() -> None:
        if not job.running:
            st.rerun()  # finished: redraw the whole page so the table shows the new index
        label = escape_markdown(job.label)  # repository text (a path may hold markdown)
        title = f"Indexing {label}" + ("" if own else " (started in another tab or window)")
        with st.status(title, expanded=own, state="running"):
            doing = _stages(job)
            eta = job.eta
            text = f"{job.fraction:.0%}" + (f" · {doing}" if doing else "") + f" · elapsed {seconds(job.elapsed)}"
            text += f" · about {seconds(eta)} left" if eta is not None else ""
            st.progress(job.fraction, text=text)
            if not own:
                return
            if job.cancel_event.is_set():
                st.caption("Cancelling after the current batch…")
            else:
                st.button("Cancel", on_click=job.cancel, key="cancel_index")

    live()


def _rows(manifests: list[Manifest]) -> list[dict[str, object]]:
    return [
        {
            "Name": m.name,
            "Source": m.source,
            "Commit": (m.sha or "")[:10] or "—",
            "Files": m.counts.get("files", 0),
            "Lines": m.counts.get("lines", 0),
            "Chunks": m.counts.get("chunks", 0),
            "Languages": ", ".join(name for name, _ in largest_first(m.languages, 5)),
            "Indexed": ui.when(m.created_at),
            "Status": {"fresh": "fresh", "stale": "stale", "unknown": "—"}[ui.freshness(m).state],
        }
        for m in manifests
    ]


def index_table(token: str = "") -> None:
    try:
        manifests = state.manifests()
    except CodeqaError as exc:
        ui.fail(exc)
    if not manifests:
        st.info(
            "No repositories indexed yet. Paste a GitHub URL or a local path above and press **Index**.",
            icon=":material/explore:",
        )
        return
    ui.table(_rows(manifests), wrapped=("Source",), name="Indexed repositories")
    names = [m.name for m in manifests]
    busy = (latest := state.jobs().latest()) is not None and latest.running
    for m in manifests:
        if ui.freshness(m).stale:
            st.warning(f"**{escape_markdown(m.name)}** is out of date: {escape_markdown(ui.freshness(m).reason)}.",
                       icon=":material/update:")  # fmt: skip
    left, chat, refresh, again, delete = st.columns([3, 1, 1, 1, 1], vertical_alignment="bottom")
    if st.session_state.get("manage_name") not in names:  # e.g. deleted meanwhile
        st.session_state.pop("manage_name", None)
    name = left.selectbox("Manage an index", names, key="manage_name")
    manifest = manifests[names.index(name)]
    update = refresh.button("Update", width="stretch", disabled=busy, help="Re-index only the files that changed.")
    if update and start(manifest.source, name=manifest.name, token=token, update=True):
        st.rerun()
    if chat.button("Open in Chat", width="stretch"):
        st.session_state[state.REPO_KEY] = name
        st.switch_page(nav.CHAT)
    if again.button("Re-index", width="stretch", disabled=busy, help="Only changed code is embedded again."):
        ref = manifest.ref if manifest.source_kind == "git" else None
        if start(manifest.source, ref=ref or "", token=token, name=manifest.name):
            st.rerun()
    if delete.button("Delete", width="stretch", disabled=busy):
        st.session_state[CONFIRM_KEY] = name
    if st.session_state.get(CONFIRM_KEY) == name:
        _confirm_delete(manifest)


def _confirm_delete(manifest: Manifest) -> None:
    st.warning(f"Delete the index **{manifest.name}**? The repository itself is not touched.", icon=":material/delete:")
    yes, no, _ = st.columns([1, 1, 4])
    if yes.button("Yes, delete", type="primary", width="stretch"):
        try:
            state.index(manifest).remove()
        except CodeqaError as exc:
            ui.fail(exc)
        st.session_state.pop(CONFIRM_KEY, None)
        st.toast(f"Deleted {manifest.name}.")
        st.rerun()
    if no.button("Keep it", width="stretch"):
        st.session_state.pop(CONFIRM_KEY, None)
        st.rerun()
