/**
 * The design notes' canonical lossy handoff (seed 000): a policy excerpt, the general-purpose
 * summary that dropped both deadlines, and a selection with verbatim quotes that kept them.
 * Shared by the inspect tests so they all judge the same example.
 */
export const seedQuestion = 'How many days do I have to appeal a denied claim?';
export const seedSource =
  'A member may request reconsideration of an adverse benefit determination within 180 calendar days of receiving written notice of denial.\n' +
  'Expedited appeals for urgent care must be filed within 72 hours.';
export const seedSummary =
  'The plan provides an appeals process for denied claims, with expedited handling available for urgent cases. Members should file promptly after receiving notice.';
export const seedQuotes = {
  relevant_sections: [
    { section_id: '7.3', why: 'states appeal deadlines', quote: 'within 180 calendar days of receiving written notice of denial' },
    { section_id: '7.3', why: 'expedited deadline', quote: 'Expedited appeals for urgent care must be filed within 72 hours.' },
  ],
  insufficient_evidence: false,
};
