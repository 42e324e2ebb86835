"""The generated client against a running drivequal (the real stack: Kafka, Elasticsearch, the
service and the C runner's agent with a simulated drive, started by PythonClientIT): submit a
qualification, poll it to its verdict, and export its samples, with the client's typed models
throughout; the runner with its drain state; a campaign (the drive as the one sample of its model) to its
model verdict; plus the refusals a caller meets (a viewer submitting or draining a runner, an unknown
job, a campaign naming a serial twice).

Environment: DRIVEQUAL_URL, DRIVEQUAL_SUBMITTER and DRIVEQUAL_VIEWER (user:password),
DRIVEQUAL_SERIAL and DRIVEQUAL_RUNNER (a drive in a runner's inventory)."""

import base64
import csv
import io
import json
import os
import time
import uuid

import httpx
import pytest

from drivequal_client import Client
from drivequal_client.api.campaign import campaign_create, campaign_get
from drivequal_client.api.drive import drive_drive
from drivequal_client.api.export import export_samples_csv
from drivequal_client.api.qualification import qualification_get, qualification_submit
from drivequal_client.api.runner import runner_drain, runner_runner
from drivequal_client.api.sample import sample_raw
from drivequal_client.models import (
    CampaignRequest,
    CampaignView,
    CampaignViewState,
    Criterion,
    DriveSelector,
    ModelRef,
    PhaseSpec,
    QualificationView,
    QualificationViewState,
    SampleSelector,
    SpreadLimit,
    SubmitRequest,
    TestPlan as JobPlan,
)

FINAL = {
    QualificationViewState.COMPLETED,
    QualificationViewState.FAILED,
    QualificationViewState.CANCELLED,
    QualificationViewState.INTERRUPTED,
}
RUNTIME_S = 30


def client(credentials: str, raise_on_unexpected_status: bool = True) -> Client:
    token = base64.b64encode(credentials.encode()).decode()
    return Client(
        base_url=os.environ["DRIVEQUAL_URL"],
        headers={"Authorization": f"Basic {token}"},
        timeout=httpx.Timeout(30.0),
        raise_on_unexpected_status=raise_on_unexpected_status,
    )


@pytest.fixture(scope="module")
def submitter() -> Client:
    return client(os.environ["DRIVEQUAL_SUBMITTER"])


@pytest.fixture(scope="module")
def viewer() -> Client:
    return client(os.environ["DRIVEQUAL_VIEWER"])


def request() -> SubmitRequest:
    return SubmitRequest(
        drive=DriveSelector(serial=os.environ["DRIVEQUAL_SERIAL"], runner_id=os.environ["DRIVEQUAL_RUNNER"]),
        plan=JobPlan(
            phases=[
                PhaseSpec(
                    name="randwrite-4k-qd32",
                    kind="workload",
                    rw="randwrite",
                    block_size_bytes=4096,
                    queue_depth=32,
                    range_percent=100.0,
                    runtime_s=RUNTIME_S,
                )
            ]
        ),
        criteria=[Criterion(metric="consistencyRatio", comparator="atLeast", limit=0.5)],
    )


def test_submit_poll_to_the_verdict_and_export_the_samples(submitter: Client, viewer: Client) -> None:
    key = f"python-client-{uuid.uuid4()}"
    job = qualification_submit.sync(client=submitter, body=request(), idempotency_key=key)
    assert isinstance(job, QualificationView)
    assert job.state in {QualificationViewState.QUEUED, QualificationViewState.DISPATCHED}
    # The ETA comes with what it rests on (docs/api.md, "Progress and ETA").
    assert job.eta.remaining_s == job.eta_s
    assert str(job.eta.basis) in {"plan", "measured", "history", "constant"} and job.eta.label
    again = qualification_submit.sync_detailed(client=submitter, body=request(), idempotency_key=key)
    assert again.status_code == 200 and again.parsed.id == job.id, "a repeated Idempotency-Key answers the same job"

    deadline = time.monotonic() + 600
    seen = []
    unavailable = 0
    # A 503 (a Problem with Retry-After) is handed back like any answer; this client never raises on a status.
    poller = client(os.environ["DRIVEQUAL_VIEWER"], raise_on_unexpected_status=False)
    while True:
        answer = qualification_get.sync_detailed(job.id, client=poller)
        if answer.status_code == 503:
            # Elasticsearch did not answer in time: the service says when to ask again.
            unavailable += 1
            assert time.monotonic() < deadline, f"503 until the deadline ({unavailable} answers)"
            time.sleep(int(answer.headers.get("retry-after", "1")))
            continue
        view = answer.parsed
        assert isinstance(view, QualificationView), f"HTTP {answer.status_code}: {answer.content!r}"
        if not seen or seen[-1] != view.state:
            seen.append(view.state)
        if view.state not in FINAL:
            assert view.eta.remaining_s == view.eta_s and view.eta.label, f"{view.state} without its ETA's basis"
        if view.verdict:
            break
        assert view.state not in FINAL - {QualificationViewState.COMPLETED}, f"job ended {view.state}: {view.message}"
        assert time.monotonic() < deadline, f"no verdict within 600 s; states seen {seen}"
        time.sleep(1)
    print(f"job {job.id}: states {[str(s) for s in seen]}, verdict {view.verdict}, 503 answers retried {unavailable}")
    assert view.state == QualificationViewState.COMPLETED
    assert view.verdict in {"PASS", "FAIL", "INCONCLUSIVE"}
    assert view.progress_percent == 100.0

    response = export_samples_csv.sync_detailed(job.id, client=viewer)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == RUNTIME_S, "one row per second of the phase"
    assert [int(row["t"]) for row in rows] == list(range(1, RUNTIME_S + 1))
    assert all(float(row["writeIops"]) > 0 for row in rows)

    page = sample_raw.sync(job.id, client=viewer, limit=10000)
    assert [sample.t for sample in page.items] == [int(row["t"]) for row in rows]
    assert all(sample.write_iops == int(float(row["writeIops"])) for sample, row in zip(page.items, rows))
    print(f"exported {len(rows)} samples as CSV; the typed sample page agrees")


def test_a_viewer_may_not_submit() -> None:
    viewer = client(os.environ["DRIVEQUAL_VIEWER"], raise_on_unexpected_status=False)
    assert qualification_submit.sync_detailed(client=viewer, body=request()).status_code == 403


def test_an_unknown_job_is_404() -> None:
    viewer = client(os.environ["DRIVEQUAL_VIEWER"], raise_on_unexpected_status=False)
    assert qualification_get.sync_detailed("q-nobody", client=viewer).status_code == 404


def test_the_runner_shows_its_drain_state_and_only_an_admin_drains_it() -> None:
    viewer = client(os.environ["DRIVEQUAL_VIEWER"], raise_on_unexpected_status=False)
    runner = runner_runner.sync_detailed(os.environ["DRIVEQUAL_RUNNER"], client=viewer)
    assert runner.status_code == 200, f"HTTP {runner.status_code}: {runner.content!r}"
    assert runner.parsed.state in ("active", "draining", "drained")
    assert runner_drain.sync_detailed(os.environ["DRIVEQUAL_RUNNER"], client=viewer).status_code == 403


def test_the_drive_lists_what_its_runner_probed_it_can_do(viewer: Client) -> None:
    detail = drive_drive.sync(os.environ["DRIVEQUAL_SERIAL"], client=viewer)
    capabilities = {capability.name: capability for capability in detail.drive.capabilities}
    # The simulated drive: a Format and a block-erase Sanitize, SMART and the OCP C0h log; no crypto erase.
    for name in ("format-user-data", "sanitize-block", "deallocate", "smart", "ocp-smart-c0h"):
        assert capabilities[name].available, name
    assert not capabilities["sanitize-crypto"].available
    assert capabilities["sanitize-crypto"].missing == "device-lacks-it"
    print("capabilities: " + ", ".join(
        f"{name} {'yes' if c.available else 'no (' + c.missing + ')'}" for name, c in capabilities.items()))


def test_a_plan_the_drive_cannot_run_is_refused_naming_what_it_lacks() -> None:
    submitter = client(os.environ["DRIVEQUAL_SUBMITTER"], raise_on_unexpected_status=False)
    body = request()
    body.plan.phases.insert(0, PhaseSpec(name="purge", kind="purge", purge_method="sanitize-crypto"))
    response = qualification_submit.sync_detailed(client=submitter, body=body)
    assert response.status_code == 422, response.content
    problem = json.loads(response.content)
    assert [m["capability"] for m in problem["missingCapabilities"]] == ["sanitize-crypto"]
    assert problem["missingCapabilities"][0]["missing"] == "device-lacks-it"
    print(f"422: {problem['detail']}")


def campaign_request(serials: list[str]) -> CampaignRequest:
    drive = drive_drive.sync(os.environ["DRIVEQUAL_SERIAL"], client=client(os.environ["DRIVEQUAL_VIEWER"])).drive
    return CampaignRequest(
        name="python client",
        model=ModelRef(vendor="DQSIM", model=drive.model, firmware=drive.firmware),
        samples=[SampleSelector(serial=serial) for serial in serials],
        profiles=[request().plan],
        criteria=[Criterion(metric="writeLatencyP99Us", comparator="atMost", limit=1e9)],
        spread_criteria=[SpreadLimit(metric="writeLatencyP99Us", max_cv_percent=50.0)],
    )


def test_a_campaign_runs_to_its_model_verdict(submitter: Client, viewer: Client) -> None:
    created = campaign_create.sync(client=submitter, body=campaign_request([os.environ["DRIVEQUAL_SERIAL"]]))
    assert isinstance(created, CampaignView)
    assert created.jobs == 1 and len(created.grid) == 1
    deadline = time.monotonic() + 600
    poller = client(os.environ["DRIVEQUAL_VIEWER"], raise_on_unexpected_status=False)
    while True:
        answer = campaign_get.sync_detailed(created.id, client=poller)
        if answer.status_code == 503:
            time.sleep(int(answer.headers.get("retry-after", "1")))
            continue
        view = answer.parsed
        assert isinstance(view, CampaignView), f"HTTP {answer.status_code}: {answer.content!r}"
        if view.state == CampaignViewState.COMPLETED:
            break
        assert time.monotonic() < deadline, f"campaign not COMPLETED within 600 s: {view.state} {view.counts}"
        time.sleep(1)
    verdict = view.model_verdict
    print(f"campaign {view.id}: model verdict {verdict.outcome}; reasons {verdict.reasons}")
    assert view.counts["COMPLETED"] == 1
    assert verdict.criteria[0].samples[0].serial == os.environ["DRIVEQUAL_SERIAL"]
    assert verdict.criteria[0].outcome == "PASS"
    # One sample has no spread: the sample-to-sample criterion cannot be decided.
    assert verdict.spreads[0].outcome == "INCONCLUSIVE"
    assert verdict.outcome == "INCONCLUSIVE"


def test_a_campaign_naming_a_serial_twice_is_refused_naming_the_field() -> None:
    serial = os.environ["DRIVEQUAL_SERIAL"]
    answer = campaign_create.sync_detailed(
        client=client(os.environ["DRIVEQUAL_SUBMITTER"], raise_on_unexpected_status=False),
        body=campaign_request([serial, serial]),
    )
    assert answer.status_code == 400
    problem = json.loads(answer.content)
    assert problem["errors"][0]["field"] == "samples[1].serial"
