// Text from files, in Markdown that tailgate posts on GitHub (the PR comment, the
// change-point issue, `history detect --markdown`, job summaries, check-run annotations): the
// one place it is escaped. Neither function lets a value produce a mention, a link, HTML or the end of
// the code span it stands in; tools/test/unit/hostile-stores.test.js renders them with
// cmark-gfm, GitHub's own Markdown engine.

// A zero-width space after '@' keeps GitHub from turning @name into a mention — which
// it does anywhere, code spans included.
const defuse = (s) =>
  s
    .replace(/@/g, '@\u200b')
    // No autolinks: a URL from a file is shown, never live.
    .replace(/:\/\//g, ':/\u200b/')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\u200b.`);

/** Text GitHub shows as is (a check run's annotation): no mention, no live URL, one line. */
export function plain(s) {
  return defuse(String(s)).replace(/[\r\n]+/g, ' ');
}

/** Plain text: Markdown and HTML neutralised, on one line. */
export function md(s) {
  return defuse(
    String(s)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/[\\`*_{}[\]|#~!]/g, (c) => `\\${c}`),
  ).replace(/[\r\n]+/g, ' ');
}

/**
 * A code span: shown literally. Inside one a backslash escapes nothing, so a backtick
 * or a line break would end it: they become spaces. '|' is escaped for tables (GFM
 * splits a row before it reads code spans).
 */
export function code(s) {
  return `\`${defuse(String(s).replace(/[`\r\n]/g, ' ')).replace(/\|/g, '\\|')}\``;
}
