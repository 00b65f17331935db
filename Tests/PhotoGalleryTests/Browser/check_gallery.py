#!/usr/bin/env python3
"""A published gallery in a real browser: headless Chromium driven by
Selenium, the gallery folder served on loopback (127.0.0.1, a port the
system picks) by Python's http.server from this process.

    check_gallery.py GALLERY_FOLDER SCREENSHOT_FOLDER

Prints one JSON document of what it saw, for the Swift test to judge:
for a phone (390x844 at 3x, touch) and a desktop (1440x900 at 1x): the
bytes the first screen transferred, every request's URL, the browser's
console errors, each tile's chosen rendition against its size on the
screen, whether every image loaded once scrolled to, the layout shift,
what a tile shows while pictures are held back, the in-page viewer and
the photo pages under keys and swipes; and the pages with JavaScript
off. Nothing here sleeps: every wait is for a condition in the page.
"""
import functools
import http.server
import json
import os
import re
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


SERVER = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=sys.argv[1]))
threading.Thread(target=SERVER.serve_forever, daemon=True).start()
BASE = "http://127.0.0.1:%d/" % SERVER.server_address[1]
SHOTS = sys.argv[2]
WAIT = 300  # seconds a condition may take on a loaded machine (beside the whole suite, under a sanitizer) before it is a failure

VIEWPORTS = {
    "phone": {"width": 390, "height": 844, "scale": 3, "mobile": True},
    "desktop": {"width": 1440, "height": 900, "scale": 1, "mobile": False},
}

RENDITION = re.compile(r"/r/([0-9a-z]+)-(\d+)-[0-9a-f]+\.(webp|jpg)$")


def browser(viewport, javascript=True, blocked=None):
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    profile = tempfile.mkdtemp(prefix="photodeck-chromium-")
    for argument in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
        "--disable-extensions", "--disable-features=Translate,OptimizationHints,MediaRouter", "--mute-audio",
        "--user-data-dir=" + profile, "--window-size=%d,%d" % (viewport["width"], viewport["height"]),
    ]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": viewport["width"], "height": viewport["height"], "deviceScaleFactor": viewport["scale"], "mobile": viewport["mobile"]})
    if viewport["mobile"]:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    if blocked:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": blocked})
    return driver


class Traffic:
    """The requests a page made, from the performance log: URL by id, the
    bytes each finished one transferred, and those still in flight."""

    def __init__(self):
        self.urls, self.sizes, self.pending = {}, {}, set()

    def drain(self, driver):
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message.get("method"), message.get("params", {})
            if method == "Network.requestWillBeSent":
                if params["request"]["url"].startswith(("data:", "chrome:", "chrome-untrusted:", "devtools:")):
                    continue  # a placeholder in the page itself, or the browser's own new-tab page: not the network
                self.urls[params["requestId"]] = params["request"]["url"]
                self.pending.add(params["requestId"])
            elif method == "Network.loadingFinished" and params["requestId"] in self.urls:
                self.sizes[params["requestId"]] = params.get("encodedDataLength", 0)
                self.pending.discard(params["requestId"])
            elif method == "Network.loadingFailed":
                self.pending.discard(params["requestId"])

    def idle(self, driver):
        """Waits until no request is in flight."""
        def quiet(d):
            self.drain(d)
            return not self.pending and d.execute_script("return document.readyState === 'complete'")
        WebDriverWait(driver, WAIT).until(quiet)


def settled(driver, script):
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(script))


PAINTED = """
const done = arguments[arguments.length - 1];
const shown = Array.from(document.images).filter(i => { const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0 && i.complete; });
Promise.all(shown.map(i => i.decode().catch(() => null))).then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
"""


def screenshot(driver, name):
    """A screenshot once the pictures on the screen that have arrived are
    decoded and painted (`decoding="async"` lets a page paint before)."""
    driver.set_script_timeout(WAIT)
    driver.execute_async_script(PAINTED)
    driver.save_screenshot(os.path.join(SHOTS, name + ".png"))
    return os.path.join(SHOTS, name + ".png")


FIRST_SCREEN_LOADED = """
const images = Array.from(document.images).filter(i => { const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; });
return document.readyState === 'complete' && images.length > 0 && images.every(i => i.complete && i.naturalWidth > 0);
"""

ALL_LOADED = "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0);"

FIT = """
return Array.from(document.querySelectorAll('.tile img')).map(i => {
  const r = i.getBoundingClientRect();
  return {src: i.currentSrc, css: r.width, dpr: devicePixelRatio, visible: r.top < innerHeight && r.bottom > 0,
          candidates: (i.parentElement.querySelector('source') || i).getAttribute('srcset').split(',').map(s => parseInt(s.trim().split(' ')[1]))};
});
"""


def check_viewport(name, viewport):
    report = {}
    driver = browser(viewport)
    try:
        traffic = Traffic()
        driver.get(BASE + "index.html")
        settled(driver, FIRST_SCREEN_LOADED)
        traffic.idle(driver)
        report["firstScreenBytes"] = sum(traffic.sizes.values())
        report["firstScreenRequests"] = len(traffic.sizes)
        report["cumulativeLayoutShift"] = driver.execute_script("""
            return performance.getEntriesByType('layout-shift').reduce((s, e) => s + (e.hadRecentInput ? 0 : e.value), 0);""")
        screenshot(driver, name)
        # Every tile once scrolled to.
        height = driver.execute_script("return document.documentElement.scrollHeight")
        for y in range(0, height + viewport["height"], viewport["height"] // 2):
            driver.execute_script("window.scrollTo(0, arguments[0])", y)
            settled(driver, FIRST_SCREEN_LOADED)
        settled(driver, ALL_LOADED)
        traffic.idle(driver)
        report["fit"] = driver.execute_script(FIT)
        report["imageCount"] = driver.execute_script("return document.images.length")
        report["allLoaded"] = driver.execute_script(ALL_LOADED)
        report["consoleErrors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]

        # The in-page viewer: a tile opens it, keys and swipes move, Escape closes it.
        driver.execute_script("window.scrollTo(0, 0)")
        viewer = {}
        driver.find_elements(By.CSS_SELECTOR, ".tile")[0].click()
        settled(driver, "const v = document.querySelector('.viewer'); return v && !v.hidden;")
        viewer["opened"] = driver.execute_script("return document.querySelector('.viewer').dataset.index")
        settled(driver, "const i = document.querySelector('.viewer img'); return i && i.complete && i.naturalWidth > 0;")
        viewer["chosen"] = driver.execute_script("const i = document.querySelector('.viewer img'); return [i.currentSrc, i.getBoundingClientRect().width * devicePixelRatio];")
        screenshot(driver, name + "-viewer")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys("\ue014")  # ArrowRight
        viewer["afterRight"] = driver.execute_script("return document.querySelector('.viewer').dataset.index")
        body.send_keys("\ue012")  # ArrowLeft
        viewer["afterLeft"] = driver.execute_script("return document.querySelector('.viewer').dataset.index")
        if viewport["mobile"]:
            swipe(driver, viewport, leftwards=True)
            viewer["afterSwipe"] = driver.execute_script("return document.querySelector('.viewer').dataset.index")
        body.send_keys("\ue00c")  # Escape
        viewer["closed"] = driver.execute_script("return document.querySelector('.viewer').hidden")
        report["viewer"] = viewer

        # A photo's page: keys and swipes follow its links.
        pages = {}
        first = driver.find_elements(By.CSS_SELECTOR, ".tile")[0].get_attribute("href")
        driver.get(first)
        settled(driver, ALL_LOADED)
        pages["first"] = driver.current_url
        pages["chosen"] = driver.execute_script("const i = document.querySelector('.frame img'); return [i.currentSrc, i.getBoundingClientRect().width * devicePixelRatio];")
        driver.find_element(By.TAG_NAME, "body").send_keys("\ue014")
        WebDriverWait(driver, WAIT).until(lambda d: d.current_url != first)
        pages["afterRight"] = driver.current_url
        if viewport["mobile"]:
            settled(driver, "return document.readyState === 'complete'")
            before = driver.current_url
            swipe(driver, viewport, leftwards=True)
            WebDriverWait(driver, WAIT).until(lambda d: d.current_url != before)
            pages["afterSwipe"] = driver.current_url
        settled(driver, "return document.readyState === 'complete'")
        before = driver.current_url
        driver.find_element(By.TAG_NAME, "body").send_keys("\ue012")
        WebDriverWait(driver, WAIT).until(lambda d: d.current_url != before)
        pages["afterLeft"] = driver.current_url
        settled(driver, "return document.readyState === 'complete'")
        before = driver.current_url
        driver.find_element(By.TAG_NAME, "body").send_keys("\ue00c")
        WebDriverWait(driver, WAIT).until(lambda d: d.current_url != before)
        pages["afterEscape"] = driver.current_url
        settled(driver, FIRST_SCREEN_LOADED)
        screenshot(driver, name + "-back")
        report["pages"] = pages
        traffic.drain(driver)
        report["consoleErrors"] += [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        report["requests"] = sorted(set(traffic.urls.values()))
    finally:
        driver.quit()

    # Pictures held back: what the first tile shows, and where it is.
    driver = browser(viewport, blocked=["*.webp", "*.jpg"])
    try:
        driver.get(BASE + "index.html")
        settled(driver, "return document.readyState === 'complete'")
        report["heldBack"] = driver.execute_script("""
            const t = document.querySelector('.tile'), r = t.getBoundingClientRect(), i = t.querySelector('img');
            return {x: r.x, y: r.y, width: r.width, height: r.height, loaded: i.complete && i.naturalWidth > 0,
                    background: getComputedStyle(t).backgroundImage.slice(0, 40), dpr: devicePixelRatio};""")
        report["heldBackShot"] = screenshot(driver, name + "-placeholders")
    finally:
        driver.quit()
    return report


def swipe(driver, viewport, leftwards):
    y = viewport["height"] // 2
    start, end = (viewport["width"] * 3 // 4, viewport["width"] // 4) if leftwards else (viewport["width"] // 4, viewport["width"] * 3 // 4)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": (start + end) // 2, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": end, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def check_without_javascript():
    report = {}
    driver = browser(VIEWPORTS["phone"], javascript=False)
    try:
        driver.get(BASE + "index.html")
        settled(driver, FIRST_SCREEN_LOADED)
        report["scriptRan"] = len(driver.find_elements(By.CSS_SELECTOR, ".viewer")) > 0
        report["firstScreenLoaded"] = True
        first = driver.find_elements(By.CSS_SELECTOR, ".tile")[0]
        target = first.get_attribute("href")
        first.click()
        WebDriverWait(driver, WAIT).until(lambda d: d.current_url == target)
        settled(driver, ALL_LOADED)
        report["opened"] = driver.current_url
        driver.find_element(By.CSS_SELECTOR, 'a[rel="next"]').click()
        WebDriverWait(driver, WAIT).until(lambda d: d.current_url != target)
        settled(driver, ALL_LOADED)
        report["next"] = driver.current_url
        driver.find_element(By.CSS_SELECTOR, 'a[rel="up"]').click()
        WebDriverWait(driver, WAIT).until(lambda d: "index.html" in d.current_url)
        report["up"] = driver.current_url
        # (No promise or animation frame runs where the page's script is off: a plain screenshot.)
        settled(driver, FIRST_SCREEN_LOADED)
        driver.save_screenshot(os.path.join(SHOTS, "phone-no-javascript.png"))
        report["consoleErrors"] = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
    return report


if __name__ == "__main__":
    os.makedirs(SHOTS, exist_ok=True)
    try:
        result = {name: check_viewport(name, viewport) for name, viewport in VIEWPORTS.items()}
        result["noJavaScript"] = check_without_javascript()
        result["base"] = BASE
    except Exception:
        # What failed, on the line the test reads (it prints what it cannot decode).
        import traceback
        print(json.dumps({"error": traceback.format_exc()}))
        sys.exit(1)
    finally:
        SERVER.shutdown()
    print(json.dumps(result))
