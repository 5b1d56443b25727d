"""The webhook URL check judges the address as a whole, at registration and at each delivery."""

from __future__ import annotations

import pytest

from service.adapters.webhooks import post, resolve
from service.api import create_app
from service.usecases.notifications import RefusedUrl
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import new_table

#: Multicast, and the NAT64, 6to4, IPv4-compatible, IPv4-mapped, Teredo and
#: site-local forms of loopback and of the cloud metadata address.
INSIDE = [
    "224.0.0.1", "239.255.255.250", "[ff02::1]",
    "[64:ff9b::a9fe:a9fe]", "[64:ff9b::7f00:1]", "[64:ff9b:1::a00:1]",
    "[::127.0.0.1]", "[::a9fe:a9fe]", "[::ffff:169.254.169.254]",
    "[2002:a9fe:a9fe::1]", "[2002:7f00:1::1]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
    "[fec0::1]", "127.0.0.1", "169.254.169.254", "10.0.0.1", "[::1]", "[fd00::1]", "0.0.0.0",
]  # fmt: skip


@pytest.mark.parametrize("host", INSIDE)
def test_an_inside_address_is_refused_in_every_form(host):
    with pytest.raises(RefusedUrl):
        resolve(f"http://{host}/hook", allow_private=False)
    # At delivery too, whatever was checked when it was registered.
    attempt = post(f"http://{host}/hook", b"{}", {}, allow_private=False)
    assert attempt.status is None and attempt.error.startswith("refused")


@pytest.mark.parametrize("host", ["8.8.8.8", "[2606:4700:4700::1111]", "[64:ff9b::808:808]"])
def test_a_global_address_is_accepted(host):
    assert resolve(f"http://{host}/hook", allow_private=False)[3] == host.strip("[]")


@pytest.mark.parametrize("url", ["http://[::1/hook", "http://[64:ff9b::a9fe:a9fe]/x", "http://224.0.0.1/x", "ftp://8.8.8.8/"])
def test_registering_a_refused_url_is_a_422(services, url):
    client = create_app(services, TEST_CONFIG).test_client()
    table = new_table(client)
    response = client.post(table.url("/webhooks"), json={"url": url}, headers=table.seats[0])
    assert response.status_code == 422 and response.get_json()["code"] == "webhook_url_refused"
