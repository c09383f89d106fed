"""Shared by the browser and server test scripts: a minimal W3C WebDriver client for
chromedriver, a JSON HTTP helper, a free port, and a non-blank screenshot check.
Standard library only."""
import base64, json, shutil, socket, subprocess, time, urllib.request, urllib.error, zlib


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def http(method, url, body=None, headers=None, timeout=60):
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


class Browser:
    """A minimal WebDriver client (W3C protocol) for chromedriver."""

    def __init__(self):
        self.port = free_port()
        driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.proc = subprocess.Popen([driver, f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                if http("GET", self.base + "/status")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        chrome = shutil.which("chromium") or "/usr/bin/chromium"
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": chrome,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800",
                     "--autoplay-policy=no-user-gesture-required", "--allow-file-access-from-files", "--mute-audio"]}}}}
        status, body = http("POST", self.base + "/session", caps)
        if status != 200:
            raise SystemExit(f"chromedriver refused a session: {body[:300]!r}")
        self.sid = json.loads(body)["value"]["sessionId"]

    def cmd(self, method, path, body=None):
        status, data = http(method, f"{self.base}/session/{self.sid}{path}", body if body is not None else ({} if method == "POST" else None))
        value = json.loads(data).get("value") if data else None
        if status != 200:
            raise RuntimeError(f"{method} {path}: {status} {value}")
        return value

    def go(self, url):
        self.cmd("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        v = self.cmd("POST", "/element", {"using": "css selector", "value": css})
        return list(v.values())[0]

    def click(self, css):
        self.cmd("POST", f"/element/{self.find(css)}/click")

    def keys(self, text):
        self.cmd("POST", "/actions", {"actions": [{"type": "key", "id": "kb", "actions":
                                                   [a for ch in text for a in ({"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch})]}]})

    def shot(self):
        return base64.b64decode(self.cmd("GET", "/screenshot"))

    def quit(self):
        try:
            http("DELETE", f"{self.base}/session/{self.sid}")
        finally:
            self.proc.kill()


def not_blank(png):
    """Decodes the PNG's pixel stream (stdlib only) and asks for real variety in it."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        return False
    i, idat, width, height = 8, b"", 0, 0
    while i < len(png):
        n = int.from_bytes(png[i:i + 4], "big")
        kind = png[i + 4:i + 8]
        if kind == b"IHDR":
            width, height = int.from_bytes(png[i + 8:i + 12], "big"), int.from_bytes(png[i + 12:i + 16], "big")
        if kind == b"IDAT":
            idat += png[i + 8:i + 8 + n]
        i += 12 + n
    raw = zlib.decompress(idat)
    return width > 100 and height > 100 and len(set(raw[::97])) > 40


def wait_for(browser, script, timeout, step=0.1):
    end = time.time() + timeout
    while time.time() < end:
        v = browser.js(script)
        if v:
            return v
        time.sleep(step)
    return None
