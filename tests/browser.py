"""A small W3C WebDriver client for the browser tests: chromedriver and headless Chromium over HTTP.

No dependency beyond the standard library. ``Browser.start()`` runs ``/usr/bin/chromedriver`` on a
free loopback port and opens one session; ``close()`` ends both.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference
KEYS = {
    "Left": "\ue012",
    "Up": "\ue013",
    "Right": "\ue014",
    "Down": "\ue015",
    "PageUp": "\ue00e",
    "PageDown": "\ue00f",
    "Home": "\ue011",
    "End": "\ue010",
    "Enter": "\ue007",
}


# chromedriver is on the loopback interface: never through a proxy from the environment.
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class WebDriverError(RuntimeError):
    """chromedriver answered with an error."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Browser:
    """One headless Chromium session."""

    starts: ClassVar[int] = 0
    """How many sessions this process has tried to start: tests/conftest.py fails a test that
    starts one without the `browser` mark."""

    def __init__(self, driver: subprocess.Popen[bytes], url: str, session: str, profile: str) -> None:
        self._driver, self._url, self._session, self._profile = driver, url, session, profile

    @classmethod
    def start(cls, width: int = 1440, height: int = 1000, *, phone: bool = False) -> Browser:
        """A headless session; with `phone`, a touch screen of exactly `width` x `height` CSS
        pixels (Chromium's windows are never narrower than 500)."""
        Browser.starts += 1
        missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not Path(path).exists()]
        if missing:
            raise FileNotFoundError(
                f"{' and '.join(missing)} not found: install the Debian packages with "
                "`sudo tools/install-system-deps` (`make test` does this as root)"
            )
        port = _free_port()
        driver = subprocess.Popen(
            [CHROMEDRIVER, f"--port={port}", "--allowed-ips=127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        profile = tempfile.mkdtemp(prefix="doko-chromium-")
        try:
            deadline = time.monotonic() + 20
            while not _ready(url):
                if driver.poll() is not None or time.monotonic() > deadline:
                    raise WebDriverError(f"chromedriver did not start (exit code {driver.poll()})")
                time.sleep(0.05)
            args = [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                f"--window-size={width},{height}",
                f"--user-data-dir={profile}",
            ]
            options: dict[str, Any] = {"binary": CHROMIUM, "args": args}
            if phone:
                metrics = {"width": width, "height": height, "pixelRatio": 2, "touch": False}
                options["mobileEmulation"] = {"deviceMetrics": metrics}
            capabilities = {
                "browserName": "chrome",
                "goog:chromeOptions": options,
                "goog:loggingPrefs": {"browser": "ALL"},
            }
            answer = _call(url, "POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
            return cls(driver, url, str(answer["sessionId"]), profile)
        except BaseException:
            driver.kill()
            driver.wait()
            shutil.rmtree(profile, ignore_errors=True)
            raise

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return _call(self._url, method, f"/session/{self._session}{path}", body)

    def open(self, path: Path, fragment: str = "") -> None:
        """Navigates to a local file (and waits for it to load)."""
        self._call("POST", "/url", {"url": path.resolve().as_uri() + fragment})

    def visit(self, url: str) -> None:
        """Navigates to a URL (a served page) and waits for it to load."""
        self._call("POST", "/url", {"url": url})

    def url(self) -> str:
        return str(self._call("GET", "/url"))

    def type(self, css: str, text: str) -> None:
        """Clears the first matching field and types `text` into it."""
        element = self.find(css)
        self._call("POST", f"/element/{element}/clear")
        self._call("POST", f"/element/{element}/value", {"text": text})

    def accept_alert(self) -> None:
        """Says OK to the page's confirm() dialog."""
        self._call("POST", "/alert/accept")

    def script(self, source: str, *args: Any) -> Any:
        """Runs the body of a function in the page and returns what it returns."""
        return self._call("POST", "/execute/sync", {"script": source, "args": list(args)})

    def find(self, css: str) -> str:
        """The reference of the first element that matches; WebDriverError if there is none."""
        found = self._call("POST", "/element", {"using": "css selector", "value": css})
        return str(found[ELEMENT])

    def find_all(self, css: str) -> list[str]:
        found = self._call("POST", "/elements", {"using": "css selector", "value": css})
        return [str(item[ELEMENT]) for item in found]

    def text(self, css: str) -> str:
        """The rendered text of the first element that matches (empty when it is not displayed)."""
        return str(self._call("GET", f"/element/{self.find(css)}/text"))

    def count(self, css: str) -> int:
        return len(self.find_all(css))

    def click(self, css: str) -> None:
        self._call("POST", f"/element/{self.find(css)}/click")

    def press(self, *keys: str) -> None:
        """Presses and releases keys by name (see ``KEYS``) on whatever has the focus."""
        actions = []
        for key in keys:
            code = KEYS.get(key, key)
            actions += [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]
        self._call("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def cdp(self, command: str, **params: Any) -> Any:
        """Sends one DevTools command (chromedriver's `goog/cdp/execute`) and returns its answer."""
        return self._call("POST", "/goog/cdp/execute", {"cmd": command, "params": params})

    def emulate_media(self, **features: str) -> None:
        """Makes the page's media queries see these features (`prefers_color_scheme="dark"`,
        `hover="none"`, ...); none: the browser's own again."""
        chosen = [{"name": name.replace("_", "-"), "value": value} for name, value in features.items()]
        self.cdp("Emulation.setEmulatedMedia", features=chosen)

    def console(self) -> list[dict[str, Any]]:
        """The browser console's entries since the last call."""
        entries: list[dict[str, Any]] = self._call("POST", "/se/log", {"type": "browser"})
        return entries

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self._call("GET", "/screenshot")))

    def close(self) -> None:
        try:
            self._call("DELETE", "")
        finally:
            self._driver.terminate()
            try:
                self._driver.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._driver.kill()
                self._driver.wait()
            shutil.rmtree(self._profile, ignore_errors=True)


def _ready(url: str) -> bool:
    try:
        return bool(_call(url, "GET", "/status")["ready"])
    except (OSError, WebDriverError):
        return False


def _call(url: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body or {}).encode() if method == "POST" else None
    request = urllib.request.Request(url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json; charset=utf-8")
    try:
        with _LOCAL.open(request, timeout=60) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as error:
        answer = json.load(error)
        value = answer.get("value", {})
        raise WebDriverError(f"{method} {path}: {value.get('error')}: {value.get('message', '')[:500]}") from None
    return answer["value"]
