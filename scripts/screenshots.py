"""Draw the explorer's pictures of the documentation from the page itself: ``neutreeko serve`` on a
loopback port, driven by headless Debian Chromium through selenium, a game with a mistake on the board.

    python scripts/screenshots.py                       # docs/images/, the 5 x 5 table built if missing
    python scripts/screenshots.py --out DIR --tables DIR
    python scripts/screenshots.py --out DIR --simulate deuteranopia

Writes ``explorer-{desktop,phone}-{light,dark}.png`` (desktop 1400 x 900, phone 390 x 844; dark through
the emulated ``prefers-color-scheme``), each through a temporary file renamed into place; with
``--simulate``, the page as a deuteranope or a protanope sees it (``...-deuteranopia.png``), through an
SVG colour matrix over the whole page. Needs
``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (``apt-get install chromium chromium-driver``).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SIZES = {"desktop": (1400, 900), "phone": (390, 844)}
#: A game whose first move is a mistake (a draw thrown to a loss), as the explorer marks it.
VIEW = "/?board=5x5&rule=connected&moves=C4-C3+D5-D2+B1-C1"
#: Linear RGB as a dichromat sees it (Machado, Oliveira and Fernandes 2009, severity 1), as the rows of an
#: SVG ``feColorMatrix`` (whose default colour space is linear RGB).
SIMULATIONS = {
    "deuteranopia": "0.367322 0.860646 -0.227968 0 0  0.280085 0.672501 0.047413 0 0  "
                    "-0.011820 0.042940 0.968881 0 0  0 0 0 1 0",
    "protanopia": "0.152286 1.052583 -0.204868 0 0  0.114503 0.786281 0.099216 0 0  "
                  "-0.003882 -0.048116 1.051998 0 0  0 0 0 1 0",
}
# Puts the colour matrix arguments[0] over the page, as a filter of its root element.
_SIMULATE_JS = """
const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
svg.setAttribute("width", "0"); svg.setAttribute("height", "0"); svg.style.position = "absolute";
svg.innerHTML = `<filter id="simulated-vision"><feColorMatrix type="matrix" values="${arguments[0]}"/></filter>`;
document.body.append(svg);
document.documentElement.style.filter = "url(#simulated-vision)";
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(tables: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``neutreeko serve`` over ``tables`` on a free loopback port, once it answers; (process, address)."""
    port = _free_port()
    environment = dict(os.environ, NEUTREEKO_TABLES=str(tables))
    process = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port), "--quiet"],
                               env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    address = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urlopen(f"{address}/api/position?position=start", timeout=5) as answer:
                json.load(answer)
            return process, address
        except (URLError, OSError):
            if process.poll() is not None:
                raise SystemExit(f"screenshots: the server stopped: {process.stderr.read().decode()[-500:]}")
            time.sleep(0.2)
    process.kill()
    raise SystemExit("screenshots: the server did not answer within 60 s")


def _browser(profile: Path):  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    return driver


def _shoot(driver, address: str, size: tuple[int, int], scheme: str, path: Path,  # type: ignore[no-untyped-def]
           simulate: str | None) -> None:
    from selenium.webdriver.support.wait import WebDriverWait

    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.get(address + VIEW)
    WebDriverWait(driver, 20, poll_frequency=0.1).until(
        lambda d: "B1-C1" in d.execute_script("return (document.getElementById('game') || {}).textContent || ''"),
        "the game is shown")
    time.sleep(0.5)  # the last move's slide and the value history's drawing
    if simulate is not None:
        driver.execute_script(_SIMULATE_JS, SIMULATIONS[simulate])
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(driver.get_screenshot_as_png())
    os.replace(temporary, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="where the PNGs go (default docs/images)")
    parser.add_argument("--tables", type=Path, help="a tables directory holding the 5 x 5 table (default: "
                                                    "the tables directory, the table built if missing)")
    parser.add_argument("--simulate", choices=sorted(SIMULATIONS), help="draw the page as seen with this "
                                                                        "colour-vision deficiency")
    options = parser.parse_args()
    for needed in (CHROMIUM, CHROMEDRIVER):
        if not needed.is_file():
            parser.error(f"no {needed} (apt-get install chromium chromium-driver)")
    options.out.mkdir(parents=True, exist_ok=True)
    if options.tables is None:
        subprocess.run([sys.executable, "-m", "solver", "query", "start"], check=True, stdout=subprocess.DEVNULL,
                       timeout=600)
        from solver.core.storage.container import tables_dir

        options.tables = tables_dir()
    process, address = _serve(options.tables)
    try:
        with tempfile.TemporaryDirectory(prefix="screenshots-") as profile:
            driver = _browser(Path(profile))
            try:
                for device, size in SIZES.items():
                    for scheme in ("light", "dark"):
                        suffix = f"-{options.simulate}" if options.simulate else ""
                        path = options.out / f"explorer-{device}-{scheme}{suffix}.png"
                        _shoot(driver, address, size, scheme, path, options.simulate)
                        print(path)
            finally:
                driver.quit()
    finally:
        process.terminate()
        process.wait(timeout=30)


if __name__ == "__main__":
    main()
