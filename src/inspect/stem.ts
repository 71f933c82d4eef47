/** A light stemmer: "redeterminations" and "redetermination", "concluded" and "conclude", "cancelled" and "cancel" meet. */
export function stem(word: string): string {
  // British and American spellings meet: "licence" and "license", "defence" and "defense".
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (w.includes('enc')) w = w.replace(/^(lic|def|off|pret)enc(e|es|ed|ing)$/, '$1ens$2');
  // "expressly" and "express", "agreement" and "agreed": an adverb or a noun of action meets its verb.
  if (w.length > 7 && w.endsWith('ly') && !w.endsWith('ally')) w = w.slice(0, -2);
  else if (w.length > 8 && w.endsWith('ment')) w = w.slice(0, -4);
  if (w.length > 7 && w.endsWith('ility')) w = `${w.slice(0, -5)}le`;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 4 && /([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}
