"""deploy/compose.yaml checked by Compose itself (``docker compose config`` or
``docker-compose config``) and deploy/k8s/*.yaml by kubernetes-validate (strict: no unknown
field), with what each must hold."""
from __future__ import annotations

import copy
import shutil
import subprocess
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def compose_command() -> list[str] | None:
    """``docker compose`` when the plugin answers, else ``docker-compose``, else ``None``."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"],
                                                 capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def test_compose_file_is_valid_with_two_api_replicas_a_healthy_redis_and_a_proxy():
    command = compose_command()
    if command is None:
        pytest.skip("neither docker compose nor docker-compose is installed "
                    "(./dev test-deploy installs Debian's docker-compose)")
    done = subprocess.run([*command, "-f", str(DEPLOY / "compose.yaml"), "config"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    services = yaml.safe_load(done.stdout)["services"]
    assert services["api"]["deploy"]["replicas"] == 2
    assert services["api"]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert "api" in services["proxy"]["depends_on"]
    assert services["api"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert (DEPLOY / "nginx.conf").read_text().count("proxy_pass http://referee_api;") == 1


def test_compose_validation_can_fail():
    command = compose_command()
    if command is None:
        pytest.skip("neither docker compose nor docker-compose is installed")
    bad = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    bad["services"]["api"]["deploy"]["replicas"] = "two"
    done = subprocess.run([*command, "-f", "-", "config"], input=yaml.safe_dump(bad),
                          capture_output=True, text=True, timeout=60, cwd=DEPLOY)
    assert done.returncode != 0


def manifests() -> list[dict]:
    return [doc for path in sorted((DEPLOY / "k8s").glob("*.yaml"))
            for doc in yaml.safe_load_all(path.read_text()) if doc]


def test_every_kubernetes_manifest_validates_strictly():
    docs = manifests()
    for doc in docs:
        kubernetes_validate.validate(doc, kubernetes_validate.latest_version(), strict=True)
    kinds = sorted(doc["kind"] for doc in docs)
    assert kinds == ["ConfigMap", "Deployment", "HorizontalPodAutoscaler",
                     "PodDisruptionBudget", "Service", "Service", "StatefulSet"]


def test_the_deployment_has_probes_resources_and_a_non_root_read_only_container():
    deployment = next(d for d in manifests() if d["kind"] == "Deployment")
    pod = deployment["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert set(container["resources"]) == {"requests", "limits"}
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False


def test_kubernetes_validation_can_fail():
    deployment = copy.deepcopy(next(d for d in manifests() if d["kind"] == "Deployment"))
    deployment["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, kubernetes_validate.latest_version(),
                                     strict=True)
    deployment["spec"]["replicas"] = 2
    deployment["spec"]["template"]["spec"]["containers"][0]["livenessprobe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):  # strict: an unknown field
        kubernetes_validate.validate(deployment, kubernetes_validate.latest_version(),
                                     strict=True)
