/**
 * What a schema field is for, read from its name: the demo model chooses what to extract by
 * role (summary, answer, quote, id …). Names are compared in snake_case, so `sectionId` and
 * `section_id` read the same.
 */

export type Role =
  | 'summary' | 'answer' | 'reply' | 'rewrite' | 'query' | 'request'
  | 'quote' | 'id' | 'reason' | 'title' | 'question' | 'text';

export function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function roleOf(nameIn: string): Role {
  const name = snake(nameIn);
  if (/summar|overview|digest|abstract|tldr|synopsis|gist/.test(name)) return 'summary';
  if (/(^|_)(reply|draft|message_to_customer|email_body)s?$/.test(name)) return 'reply';
  if (/(^|_)(answer|response|verdict|conclusion)s?$/.test(name)) return 'answer';
  if (/(^|_)(query|queries|keywords|search_terms)$/.test(name)) return 'query';
  if (/rewrite|plain_english|simplified|paraphrase|restatement/.test(name)) return 'rewrite';
  if (/quote|evidence|excerpt|snippet|passage|span|extract|supporting_text/.test(name)) return 'quote';
  if (/(^|_)(ids?|sections?|clauses?|citations?|refs?|references?|sources?|paragraphs?)$/.test(name)) return 'id';
  if (/why|reason|rationale|explanation|justification/.test(name)) return 'reason';
  if (/(title|heading|name|label|topic)$/.test(name)) return 'title';
  if (/question/.test(name)) return 'question';
  if (/(^|_)(request|ask|issue|problem|complaint)s?$/.test(name)) return 'request';
  return 'text';
}

export function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
}

/** An id-like property name: `id`, `clause_id`, `unitId`. */
export function isIdKey(name: string): boolean {
  return /(^|_)id$/.test(snake(name));
}

/** Names of labels a classifier picks (an enum over these is a classification, not an id). */
export function isLabelField(name: string): boolean {
  return /intent|categor|(^|_)(type|kind|class|label|topic)$|sentiment|tone|mood|urgency|priority|severity|department|queue|route/.test(snake(name));
}

/** An array of ids that orders candidates rather than selecting a few. */
export function isOrdering(name: string): boolean {
  return /(^|_)(ranked|ranking|reranked|ordering|ordered|sorted|prioriti[sz]ed)(_|$)/.test(snake(name));
}
