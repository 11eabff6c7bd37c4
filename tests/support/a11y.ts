import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The impacts that block a release; moderate and minor ones are left to review. */
const BLOCKING = new Set(['serious', 'critical']);
/** A page held to more (the staff pages: landmarks are moderate, and were wrong once). */
const BLOCKING_WITH_MODERATE = new Set([...BLOCKING, 'moderate']);

export interface AxeCheckOptions {
  disableRules?: string[];
  /** Moderate findings block too (duplicate or nested `main`, landmarks without a unique name). */
  includeModerate?: boolean;
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and returns the serious and
 * critical violations (and moderate ones when asked), each as a readable line with the offending
 * elements, so a failing assertion says what to fix.
 */
export async function findBlockingViolations(
  page: Page,
  options: AxeCheckOptions = {},
): Promise<string[]> {
  const blocking = options.includeModerate ? BLOCKING_WITH_MODERATE : BLOCKING;
  // Mid-transition elements (a toast fading in) have partial opacity, which axe reads as poor
  // colour contrast; endless ones (spinners) never settle and are left out of the wait. Two
  // frames first: a popover that has just mounted starts its transition a frame or so later
  // (Mantine's pre-entering state), and until then there is no animation to wait for — a menu
  // that opened as its code arrived was checked half faded in.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50))),
      ),
  );
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .disableRules(options.disableRules ?? [])
    .analyze();
  return results.violations
    .filter((violation) => blocking.has(violation.impact ?? ''))
    .map((violation) => {
      const targets = violation.nodes
        .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`)
        .join('\n');
      return `${violation.impact ?? ''} ${violation.id}: ${violation.help} (${violation.helpUrl})\n${targets}`;
    });
}
