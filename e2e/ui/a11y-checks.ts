import AxeBuilder from "@axe-core/playwright";
import { type CDPSession, expect, type Page } from "@playwright/test";

/** WCAG 2.0 and 2.1, levels A and AA: what the service promises. */
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Every axe violation on the page, one readable line per failing element: rule, impact, target, the
 * failing html and why; and placeholder text under 4.5:1, which axe does not measure. No rule is
 * disabled and nothing is excluded.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // A colour mid-transition (a button turning enabled) is not the colour people read: let it settle.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // axe.run in the page itself ("legacy" mode), not its default run in each frame merged in a blank page it
  // opens for the purpose: the views hold no frame (checked here), so it reads exactly the same, and the blank
  // page was a third of each check's time.
  expect(page.frames(), "a view with a frame needs axe's default, per-frame mode").toHaveLength(1);
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).withTags(WCAG_AA).analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact ?? "?"}) at ${n.target.join(" ")}: ${n.html}\n    ${(n.failureSummary ?? v.help).replace(/\n\s*/g, " ")}`,
    ),
  );
  return [...found, ...(await placeholderContrast(page))];
}

/** Inputs whose placeholder text has less than 4.5:1 against the field's background. */
function placeholderContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The canvas turns any CSS colour (oklch, color-mix) into sRGB bytes.
    const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const rgb = (css: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const background = (el: Element | null): string => {
      for (; el; el = el.parentElement) {
        const bg = getComputedStyle(el).backgroundColor;
        if (bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent") return bg;
      }
      return "#fff";
    };
    return [...document.querySelectorAll<HTMLInputElement>("input[placeholder], textarea[placeholder]")]
      .filter((el) => el.checkVisibility() && el.placeholder)
      .flatMap((el) => {
        const fg = luminance(rgb(getComputedStyle(el, "::placeholder").color));
        const bg = luminance(rgb(background(el)));
        const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        return ratio >= 4.5
          ? []
          : [`placeholder-contrast at ${el.outerHTML.slice(0, 160)}: ${ratio.toFixed(2)}:1, expected 4.5:1`];
      });
  });
}

type Stop = { key: string; label: string; ring: boolean; outside: boolean };

const TAB = { key: "Tab", code: "Tab", windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 };

/**
 * Presses Tab `times` times: real key events through the browser's input pipeline (the DevTools protocol's
 * Input.dispatchKeyEvent, which Playwright's own keyboard uses), sent in a row and handled in order, each
 * moving focus as a person's would. Awaiting each press on its own costs a round trip per Tab: a page with
 * a hundred controls spent most of the accessibility check waiting for them.
 */
async function pressTab(keyboard: CDPSession, times: number) {
  await Promise.all(
    Array.from({ length: times }, () => [
      keyboard.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...TAB }),
      keyboard.send("Input.dispatchKeyEvent", { type: "keyUp", ...TAB }),
    ]).flat(),
  );
}

/**
 * Presses Tab through the page (or the open modal dialog) until focus comes back to where it started,
 * and asserts that every visible, enabled control was reached, that each showed a focus indicator (an
 * outline, or a box-shadow ring it did not have unfocused), and that focus never left an open dialog.
 */
export async function expectKeyboardReachable(page: Page) {
  // Mark the controls a keyboard user must reach, and note how each looks unfocused.
  const expected: string[] = await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const root = document.querySelector("dialog[open]") ?? document.body;
    const selector =
      "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])";
    const radios = new Set<string>();
    const keys: string[] = [];
    root.querySelectorAll<HTMLElement>(selector).forEach((el, i) => {
      const key = String(i);
      el.dataset.a11yKey = key;
      el.dataset.a11yShadow = getComputedStyle(el).boxShadow;
      if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || el.closest("[inert]")) return;
      if (!el.checkVisibility({ visibilityProperty: true })) return;
      // A radio group is one tab stop; the arrows move within it.
      if (el instanceof HTMLInputElement && el.type === "radio") {
        if (!radios.has(el.name)) keys.push(`radio:${el.name}`);
        radios.add(el.name);
        return;
      }
      keys.push(key);
    });
    return keys;
  });

  // Each focus is recorded in the page as it happens, so a Tab costs one round trip, not two.
  await page.evaluate(() => {
    const stops: Stop[] = [];
    (window as unknown as { __a11yStops: Stop[] }).__a11yStops = stops;
    document.addEventListener("focusin", (event) => {
      const el = event.target as HTMLElement;
      // Something focusable the list above missed still counts as a stop of its own.
      el.dataset.a11yKey ??= `unlisted-${stops.length}`;
      const dialog = document.querySelector("dialog[open]");
      const style = getComputedStyle(el);
      const outline =
        style.outlineStyle !== "none" &&
        Number.parseFloat(style.outlineWidth) > 0 &&
        !/rgba\(.*,\s*0\)|transparent/.test(style.outlineColor);
      const shadow = style.boxShadow !== "none" && style.boxShadow !== el.dataset.a11yShadow;
      const radio = el instanceof HTMLInputElement && el.type === "radio";
      stops.push({
        key: radio ? `radio:${el.name}` : el.dataset.a11yKey,
        label: `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") || el.textContent || (el as HTMLInputElement).name || "").trim().slice(0, 40)}"`,
        ring: outline || shadow,
        outside: Boolean(dialog && !dialog.contains(el)),
      });
    });
  });
  /** The stops of one round, up to focus coming back to the first. */
  const round = async () => {
    const all = await page.evaluate(() => (window as unknown as { __a11yStops: Stop[] }).__a11yStops);
    const again = all.findIndex((s, i) => i > 0 && s.key === all[0]?.key);
    return { stops: again < 0 ? all : all.slice(0, again), done: again >= 0 };
  };
  // Stops the list did not name (a chart's focusable parts) count too: Tab on until focus wraps.
  let stops: Stop[] = [];
  const keyboard = await page.context().newCDPSession(page);
  for (let pressed = 0; pressed < expected.length * 3 + 20; pressed += expected.length + 5) {
    await pressTab(keyboard, expected.length + 5);
    const now = await round();
    stops = now.stops;
    if (now.done) break;
  }
  await keyboard.detach();
  const reached = new Set(stops.map((s) => s.key));
  const missed: string[] = await page.evaluate(
    (keys) =>
      keys.map((k) => {
        const el = k.startsWith("radio:")
          ? document.querySelector(`input[type=radio][name="${k.slice(6)}"]`)
          : document.querySelector(`[data-a11y-key="${k}"]`);
        return el ? el.outerHTML.slice(0, 160) : k;
      }),
    expected.filter((k) => !reached.has(k)),
  );
  expect(missed, `controls Tab never reached; Tab went ${stops.map((s) => s.label).join(" → ")}`).toEqual([]);
  expect(
    stops.filter((s) => !s.ring).map((s) => s.label),
    "controls with no visible focus indicator",
  ).toEqual([]);
  expect(
    stops.filter((s) => s.outside).map((s) => s.label),
    "controls focused outside the open dialog",
  ).toEqual([]);
}
