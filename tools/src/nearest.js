// The name a user probably meant: a mistyped command, flag or bench.yaml key is answered
// with the nearest valid one, by the same rule everywhere.

/** A refusal's tail naming the nearest valid name: ` — did you mean "traefik"?`, or '' when none is near. */
export function didYouMean(word, names) {
  const near = closest(word, names);
  return near ? ` — did you mean "${near}"?` : '';
}

/** The name within two edits of `word` (Levenshtein), the nearest; null when none is. */
export function closest(word, names) {
  const dist = (a, b) => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++)
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
    return prev[b.length];
  };
  const ranked = names.map((n) => [dist(String(word), n), n]).sort((x, y) => x[0] - y[0]);
  return ranked.length && ranked[0][0] <= Math.min(2, Math.floor(String(word).length / 2)) ? ranked[0][1] : null;
}
