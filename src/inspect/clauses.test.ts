import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Boundary } from '../trace/replay.ts';
import { inspectBoundary } from './boundary.ts';
import { extractClauses } from './clauses.ts';
import { extractFacts } from './facts.ts';
import { askedFacts, questionForm } from './relevance.ts';
import { factSurvival } from './survival.ts';

const clauses = (text: string) => extractClauses(text, extractFacts(text)).map((c) => `${c.unit}: ${c.text}`);
const corpus = (path: string) => readFileSync(new URL(`../../../shared/corpus/documents/${path}`, import.meta.url), 'utf8');

// A dental-plan handbook in the issue's shape: numbered clauses, each rule with its condition.
const handbook = [
  '# Plan handbook',
  '## 4. Appeals',
  '4.1 A member may appeal a denied claim within 180 days of the denial notice.',
  "4.3 An urgent appeal, where waiting would seriously harm the member's health, is decided within 72 hours.",
  "4.5 The external reviewer's decision is binding on the plan.",
  '## 5. Claims',
  '5.2 A claim is never paid if it is filed more than 12 months after the service, unless the member was legally incapacitated.',
  '## 6. Grievances',
  '6.1 A grievance is a complaint about service quality, not about a claim decision.',
  '6.2 The plan answers a grievance within 45 days. A grievance does not extend any appeal deadline.',
  '## 3. Coverage',
  '3.1 Preventive care is covered at 100% with no deductible.',
].join('\n');
const sources = [{ name: 'document', text: handbook }];

function boundary(question: string, intermediate: string): Boundary {
  return {
    id: 'data:summarise->answer:summary', producer: 'summarise', consumer: 'answer', binding: 'summary', intermediate, sources,
    received: { messages: [], segments: [{ kind: 'binding:summary', text: intermediate, tokens: 1 }, { kind: 'binding:question', text: question, tokens: 1 }] },
    consumerOutput: undefined,
  };
}
const clauseFact = (text: string, intermediate: string) => factSurvival(sources, intermediate).facts.find((f) => f.kind === 'condition' && f.text === text);

describe('conditions are facts', () => {
  it('finds exceptions, prerequisites, scope, definitions, negations, finality and limits in numbered clauses', () => {
    expect(clauses(handbook)).toEqual([
      "scope: where waiting would seriously harm the member's health",
      'finality: binding on the plan',
      'negation: never paid if it is filed more than',
      'exception: unless the member was legally incapacitated',
      'definition: A grievance is a complaint about service quality',
      'scope: not about a claim decision',
      'negation: does not extend any appeal deadline',
      'negation: no deductible',
    ]);
    expect(clauses('Members may request an external review only once per claim, and may cancel at any time. Refunds are made only after the goods are returned.'))
      .toEqual(['limit: only once per claim', 'finality: at any time', 'prerequisite: only after the goods are returned']);
  });

  it('finds no rule in a title: a heading names a topic, the clause under it says the rule', () => {
    const statute = '(5) Binding nature of positive determination\n\nIf the contractor makes the determination, such determination shall be binding on the contractor.\n';
    expect(clauses(statute)).toEqual(['prerequisite: If the contractor makes the determination', 'finality: binding on the contractor']);
    expect(clauses('## Refunds are final\n\nA refund is final once paid.')).toEqual(['finality: is final once paid']);
    // A numbered rule on a line of its own is no title: it ends with its full stop.
    expect(clauses('1.2 An employee must work at least 30 hours a week to remain eligible.\n\n1.3 Next.')).toContain('prerequisite: to remain eligible');
  });

  it('reads a requirement of two verbs joined by "and" or "or" as one, when its first says too little alone', () => {
    expect(clauses('Before acting, you have to list the action detail and obtain explicit user confirmation (yes) to proceed.'))
      .toEqual(['obligation: have to list the action detail and obtain explicit user confirmation']);
    expect(clauses('The tenant may sublet or assign the lease with the landlord\'s written consent.'))
      .toEqual(['permission: may sublet or assign the lease with the landlord\'s written consent']);
    // A first verb that says enough is a requirement of its own: the clause ends at "and".
    expect(clauses('The seller must deliver the goods to the buyer\'s warehouse and pay the freight.'))
      .toEqual(['obligation: must deliver the goods to the buyer\'s warehouse']);
  });

  it('finds requirements and permissions in words, plain "if", "who", "even when", "by …ing" and "to the extent", but not a period\'s start', () => {
    expect(clauses('An order can only be cancelled if its status is pending. A gift card must have enough balance to cover the total amount.'))
      .toEqual(['prerequisite: can only be cancelled if its status is pending', 'obligation: must have enough balance to cover the total amount']);
    expect(clauses('If requested by the Licensor, You must remove the notice to the extent reasonably practicable.'))
      .toEqual(['prerequisite: If requested by the Licensor', 'limit: to the extent reasonably practicable']);
    expect(clauses('A member who sees a provider outside the network files the claim. This has to be done even when the user already provides the id. Coverage may continue by paying the full premium.'))
      .toEqual(['scope: who sees a provider outside the network files the claim', 'prerequisite: even when the user already provides the id', 'prerequisite: by paying the full premium']);
    // The rule's verb with a figure or one word after it is no condition; "after" a figure is when a period starts.
    expect(clauses('A member may appeal a denied claim within 180 days. Claims must be filed within 12 months after the service.')).toEqual([]);
    expect(clauses('Sections 1 and 5 survive termination of this License. Your rights terminate automatically.'))
      .toEqual(['finality: survive termination of this License', 'finality: automatically']);
  });

  it('reads a table row and a long line without breaks as it reads prose; a figure is never swallowed', () => {
    expect(clauses('| Preventive care | 100% | no deductible |\n| Major services | 50% | subject to the annual maximum |'))
      .toEqual(['negation: no deductible', 'prerequisite: subject to the annual maximum']);
    const long = `${'The supplier shall deliver the goods. '.repeat(400)}Payment is due within 30 days, provided that the invoice is correct.`;
    expect(clauses(long)).toEqual(['prerequisite: provided that the invoice is correct']);
    // "no later than" is a deadline's wording, not a prohibition; the clause stops before the figure.
    expect(clauses('Appeals must be filed no later than 30 days after notice.')).toEqual([]);
  });

  it('holds on a contract, a statute and a policy it was not written from', () => {
    expect(clauses(corpus('contracts/cuad-paratek-carbogen-outsourcing-agreement-2016.txt'))).toEqual(expect.arrayContaining(['exception: unless otherwise mutually agreed by the Parties']));
    expect(clauses(corpus('health-plan/42-USC-1395ff-medicare-determinations-and-appeals.md'))).toEqual(expect.arrayContaining(['prerequisite: only if notice is filed with the Secretary to request the redetermination']));
    expect(clauses(corpus('support/tau-bench/airline-agent-policy.md'))).toEqual(expect.arrayContaining(['prerequisite: only if travel insurance is bought', 'negation: cannot add insurance after initial booking']));
  });

  it('each condition has a place: its section and line, like a number', () => {
    const f = clauseFact('unless the member was legally incapacitated', '');
    expect(f).toMatchObject({ section: '5.2', line: 7, status: 'dropped' });
  });
});

describe('survival by meaning, with polarity', () => {
  it.each([
    ['unless the member was legally incapacitated', 'Late claims are not paid unless the member was incapacitated.', ['member', 'incapacitated']],
    ['binding on the plan', "The reviewer's decision is final for the plan.", ['binding', 'plan']],
    ["where waiting would seriously harm the member's health", "Urgent appeals, where the member's health is at serious risk, take 72 hours.", ['serious', 'harm', 'member', 'health']],
    ['does not extend any appeal deadline', 'Grievances do not extend any deadline.', ['extend', 'deadline']],
  ])('"%s" survives as %j, matching %j', (text, intermediate, matched) => {
    const f = clauseFact(text, intermediate);
    expect(f?.status).toBe('survived');
    expect(f?.matchedWords).toEqual(matched);
  });

  it.each([
    ['does not extend any appeal deadline', 'Filing a grievance extends the appeal deadline.'],
    ['never paid if it is filed more than', 'Claims filed late are always paid if filed more than a year on.'],
    ['unless the member was legally incapacitated', 'A member who was legally incapacitated is paid late.'],
  ])('"%s" is changed, not kept, by %j', (text, intermediate) => {
    const f = clauseFact(text, intermediate);
    expect(f?.status).toBe('changed');
    expect(f?.restatedAs).toBe(intermediate.replace(/\.$/, ''));
  });

  it('a prohibition with an exception after it survives as a permission with "only" ("never paid … unless" as "paid late only if")', () => {
    expect(clauseFact('never paid if it is filed more than', 'A claim filed more than 12 months late is paid only if the member was incapacitated.')?.status).toBe('survived');
    // Without the exception after it in the source, the same restatement turns the prohibition round.
    expect(clauseFact('does not extend any appeal deadline', 'A grievance extends the appeal deadline only if it is urgent.')?.status).toBe('changed');
  });

  it('a concession said as an exception is turned round ("even when" against "unless")', () => {
    const policy = [{ name: 'document', text: 'The agent must authenticate the user. This has to be done even when the user already provides the user id.' }];
    const judged = (intermediate: string) => factSurvival(policy, intermediate).facts.find((f) => f.unit === 'prerequisite' && /^even when/.test(f.text));
    expect(judged('The agent authenticates the user, even if the user already gave a user id.')?.status).toBe('survived');
    expect(judged('The agent authenticates the user unless the user already provides the user id.')?.status).toBe('changed');
  });

  it('a clause of one word of its own is not kept by its sentence\'s other words ("after the deductible")', () => {
    const plan = [{ name: 'document', text: '3.2 Basic services such as fillings are paid at 80% after the deductible.' }];
    const judged = (intermediate: string) => factSurvival(plan, intermediate).facts.find((f) => f.unit === 'prerequisite')?.status;
    expect(judged('Basic services such as fillings: 80%. Deductible: $50.')).toBe('dropped');
    expect(judged('Basic services such as fillings are paid at 80% once the deductible is met.')).toBe('survived');
  });

  it('a clause of two words is not kept on one of them said only in a word of the same meaning ("to remain eligible" by "continue")', () => {
    const plan = [{ name: 'document', text: '1.2 An employee must work at least 30 hours a week to remain eligible.' }];
    const judged = (intermediate: string) => factSurvival(plan, intermediate).facts.find((f) => f.unit === 'prerequisite')?.status;
    expect(judged('Coverage can sometimes continue after employment ends.')).toBe('dropped');
    // Said in its own word, or in both words, it is kept.
    expect(judged('Employees working 30 hours a week remain covered.')).toBe('survived');
    expect(judged('Employees stay eligible while they work 30 hours a week.')).toBe('survived');
  });

  it('reads a clause across a wrapped line, and British and American spellings as one word', () => {
    expect(clauses('a. Your rights terminate automatically, unless the Licensor\n          expressly agrees otherwise.\nb. Notices\nmust be in writing.'))
      .toEqual(['finality: automatically', 'exception: unless the Licensor\n          expressly agrees otherwise']);
    const judged = factSurvival([{ name: 'document', text: 'Patent and trademark rights are not licensed under this Public License.' }], 'The licence grants no patent or trademark rights.')
      .facts.find((f) => f.unit === 'negation');
    expect(judged?.status).toBe('survived');
  });

  it('a verb of two words is read as the word it stands for ("gives up any right" keeps "waived any rights")', () => {
    const statute = [{ name: 'document', text: 'A supplier may not represent an individual in an appeal, unless the person has waived any rights for payment from the beneficiary.' }];
    const judged = (intermediate: string) => factSurvival(statute, intermediate).facts.find((f) => f.unit === 'exception')?.status;
    expect(judged('A supplier may represent the beneficiary only if it gives up any right to payment from the beneficiary.')).toBe('survived');
    expect(questionForm('Can the licensor take it back next year?').terms).toContain('revok');
  });

  it('an extension in words is an exception of its own ("or within such additional time as the Secretary may allow")', () => {
    expect(clauses('A request must be filed within 180 days, or within such additional time as the Secretary may allow.'))
      .toEqual(['exception: or within such additional time as the Secretary may allow']);
  });

  it('a clause cut at "or" is judged on what runs on to its clause break when its own words fall short', () => {
    const statute = [{ name: 'document', text: '(B) The 90-day period shall not apply in the case of a motion or stipulation by the party requesting the hearing to waive such period.' }];
    const judged = (intermediate: string) => factSurvival(statute, intermediate).facts.find((f) => f.unit === 'negation');
    expect(judged('The 90 days no longer apply once the party who asked for the hearing stipulates to waive them.')?.status).toBe('survived');
    expect(judged('The judge decides within 90 days.')?.status).toBe('dropped');
  });

  it('a condition with no words in common is dropped, and a few shared words do not count as a change', () => {
    expect(clauseFact('unless the member was legally incapacitated', 'Claims are never paid after 12 months.')?.status).toBe('dropped');
    expect(clauseFact('not about a claim decision', 'Members may appeal a denied claim within 180 days.')?.status).toBe('dropped');
  });
});

describe('what a yes/no question asks', () => {
  it('asks for the statement that decides it, and for a figure only where the question names one', () => {
    expect(questionForm('Does filing a grievance give me more time to appeal?')).toMatchObject({ wants: ['condition'], decision: true });
    expect(questionForm('Is the external reviewer\'s decision final?').wants).toEqual(['condition']);
    expect(questionForm('What happens if I miss the deadline?').wants).toEqual(['condition']);
    expect(questionForm('When does a late claim count as filed on time?').wants).toEqual(['condition']);
    expect(questionForm('My claim was filed 14 months after the service because I was in a coma. Can it still be paid?').wants).toEqual(['condition', 'duration', 'date']);
    // A yes/no question after a clause that sets the scene is still decided by a statement.
    expect(questionForm('If my supplier represents me in the appeal, can it charge me for the representation?')).toMatchObject({ wants: ['condition'], decision: true });
    // A question whose form names no kind of answer asks for a thing, never for a clause.
    const whatThing = factSurvival(sources, '');
    expect(askedFacts('What does the external reviewer decide about the plan?', whatThing, sources).map((a) => a.fact.kind)).not.toContain('condition');
    // "When will…" is decided by the rule that says when, or by a time; "When must…" asks for a time.
    expect(questionForm('When will the agent hand me over to a human?')).toMatchObject({ wants: ['condition', 'date', 'duration'], decision: true });
    expect(questionForm('When must an appeal be decided?')).toMatchObject({ decision: false });
    // "What happens if I file late?": the "if" clause is the circumstance; a named term it states is not what is asked.
    const late = factSurvival(sources, '');
    const named = askedFacts('What happens if my grievance is about a claim decision?', late, sources);
    expect(named.length).toBeGreaterThan(0);
    expect(named.map((a) => a.fact.text)).toEqual(expect.arrayContaining(['A grievance is a complaint about service quality', 'not about a claim decision']));
    expect(named[0]?.why).toMatch(/a condition, as "What happens…" asks \(a question a statement decides\)/);
    // A quantity question put as yes/no keeps its quantities.
    expect(questionForm('Is there a limit on what the plan pays each year?').wants).toEqual(expect.arrayContaining(['money', 'condition']));
  });

  it('"Does filing a grievance give me more time to appeal?" is not lossy for a summary that kept the rule and dropped the 45 days', () => {
    const report = inspectBoundary(boundary('Does filing a grievance give me more time to appeal?', 'Members may appeal a denied claim within 180 days. Grievances do not extend any deadline.'));
    expect(report.lossy).toBe(false);
    expect(report.askedFacts[0]?.fact.text).toBe('does not extend any appeal deadline');
    expect(report.askedFacts.some((a) => a.fact.text === '45 days')).toBe(false);
    expect(report.askedFacts[0]?.why).toMatch(/a condition, as "Does…" asks \(a question a statement decides\)/);
    // Dropped, the rule is the loss; said the other way round, it is changed.
    const dropped = inspectBoundary(boundary('Does filing a grievance give me more time to appeal?', 'The plan answers grievances within 45 days.'));
    expect(dropped.lead?.fact.text).toBe('does not extend any appeal deadline');
    const flipped = inspectBoundary(boundary('Does filing a grievance give me more time to appeal?', 'Filing a grievance extends the appeal deadline.'));
    expect(flipped.reasons[0]).toMatch(/^question asks for "does not extend any appeal deadline" .*: changed, to "Filing a grievance extends the appeal deadline"$/);
  });

  it('"…in a coma. Can it still be paid?" is lossy when the summary kept 12 months and dropped the exception', () => {
    const question = 'My claim was filed 14 months after the service because I was in a coma. Can it still be paid?';
    const report = inspectBoundary(boundary(question, 'Claims are never paid after 12 months.'));
    expect(report.lossy).toBe(true);
    expect(report.reasons.join('\n')).toMatch(/question asks for "unless the member was legally incapacitated" \(condition, 5\.2/);
    expect(inspectBoundary(boundary(question, 'Claims are never paid after 12 months, unless the member was incapacitated.')).lossy).toBe(false);
  });

  it('reads a sentence that points back ("This has to be done even when…") as part of the rule before it', () => {
    const policy = '- Authenticate the user by locating their user id via email. This has to be done even when the user already provides the user id.';
    const site = [{ name: 'document', text: policy }];
    const at = (intermediate: string) => inspectBoundary({ ...boundary('I already gave the agent my user id. Do I still have to be authenticated?', intermediate), sources: site });
    expect(new Set(at('').askedFacts.map((a) => a.place)).size).toBe(1);
    // The rule kept without its "even when" is no complete answer; kept with it, it is.
    expect(at('The agent authenticates the user by locating the user id via email.').lossy).toBe(true);
    expect(at('The agent authenticates the user by locating the user id via email, even when the user already gave a user id.').lossy).toBe(false);
  });

  it('a rule said the other way round at the best place is a loss, though a weaker place was kept whole', () => {
    const licence = [
      '1. The licensor may offer the material under other terms or stop distributing it at any time; however, doing so will not terminate this licence.',
      '2. Your rights under this licence terminate automatically if you fail to comply with its conditions.',
    ].join('\n');
    const site = [{ name: 'document', text: licence }];
    const at = (intermediate: string) => inspectBoundary({ ...boundary('The author has stopped distributing the work. Does my licence end?', intermediate), sources: site });
    const kept = 'Rights under the licence terminate automatically if you fail to comply with its conditions.';
    const flipped = at(`The licensor may stop distributing the material at any time, which ends the licence. ${kept}`);
    expect(flipped.lossy).toBe(true);
    expect(flipped.lead?.fact.text).toBe('will not terminate this licence');
    expect(flipped.reasons[0]).toMatch(/: changed, to "The licensor may stop distributing the material at any time, which ends the licence"; said the other way round at the place that best matches the question, so the facts kept at [^"]* do not answer it$/);
    expect(at(`The licensor may stop distributing the material at any time, but that does not end the licence. ${kept}`).lossy).toBe(false);
  });

  it('"the following" wrapped over a line break is no verb "follow" either', () => {
    const text = ['Your use of the site is made subject to the', 'following conditions.', '', 'A visitor who posts a review must follow the rules of the site.'].join('\n');
    const site = [{ name: 'document', text }];
    const asked = askedFacts('Must I follow the rules when I use the site?', factSurvival(site, ''), site);
    expect(asked[0]?.fact.text).toBe('who posts a review must follow the rules of the site');
    expect(asked.find((a) => a.fact.text.startsWith('subject to'))?.matched).not.toContain('follow');
  });

  it('reads a sentence of wrapped plain text as one place: its condition and the limit on the next line are one answer', () => {
    // A licence wrapped at a fixed width: the sentence runs on over lines that go on in lower case.
    const licence = [
      '  b. Attribution.',
      '',
      '       1. If requested by the Licensor, You must remove any of the',
      '          information required by this Section to the extent',
      '          reasonably practicable.',
    ].join('\n');
    const wrapped = [{ name: 'document', text: licence }];
    const at = (intermediate: string) => inspectBoundary({ ...boundary('Must I always remove the author\'s name?', intermediate), sources: wrapped });
    const places = new Set(at('').askedFacts.map((a) => a.place));
    expect(places.size).toBe(1);
    // Keeping the limit and dropping the request is no complete answer; keeping both is.
    expect(at('The licensee must remove the required information as far as is reasonably practicable.').lossy).toBe(true);
    expect(at('Only when the licensor requests it must the licensee remove the required information, and then as far as is reasonably practicable.').lossy).toBe(false);
  });

  it('a neighbouring sentence kept whole does not answer where the section\'s best-matching rule was lost', () => {
    const policy = [
      '## Cancel order',
      '- An order can only be cancelled if its status is pending: an order that has shipped is no longer pending.',
      '- To cancel, the user needs to confirm the order id and a reason.',
      '## Returns',
      '- A return can only be made for a delivered order.',
    ].join('\n');
    const site = [{ name: 'document', text: policy }];
    const at = (intermediate: string) => inspectBoundary({ ...boundary('My order has already shipped. Can I still cancel it?', intermediate), sources: site });
    const lost = at('To cancel, the user confirms the order id and a reason.');
    expect(lost.lossy).toBe(true);
    expect(lost.lead?.fact.text).toBe('can only be cancelled if its status is pending');
    expect(at('Only pending orders can be cancelled, so not shipped ones; the user confirms the order id and a reason.').lossy).toBe(false);
  });

  it('a lost clause that points elsewhere for what it says ("only if the individual described in subparagraph") outranks no sentence', () => {
    const statute = [
      '(i) Reconsiderations',
      '',
      'Reconsideration of a denied claim shall be available only if the individual described in subparagraph (A) files notice for reconsideration by the end of the 180-day period. The Secretary may allow additional time to file for reconsideration on a showing of good cause.',
    ].join('\n');
    const site = [{ name: 'document', text: statute }];
    const report = inspectBoundary({ ...boundary('I missed the 180-day deadline for a reconsideration. Is there any way to still file?', 'The Secretary may allow additional time to file for reconsideration on a showing of good cause.'), sources: site });
    expect(report.askedFacts.find((a) => a.fact.text === 'only if the individual described in subparagraph')?.status).toBe('dropped');
    expect(report.lossy).toBe(false);
  });

  it('a clause with "either" runs on through its "or": the choice is between both', () => {
    expect(clauses('The refund must either go to the original payment method, or an existing gift card.'))
      .toEqual(['obligation: must either go to the original payment method, or an existing gift card']);
    // Without "either", "or" ends the clause as before.
    expect(clauses('The refund must go to the original payment method of the order, or to a new gift card.'))
      .toEqual(['obligation: must go to the original payment method of the order']);
  });

  it('"exactly one" keeps a limit\'s "only": a limit said with "exactly" is not widened', () => {
    const policy = [{ name: 'document', text: '- The user can only choose a single payment method different from the original payment method.' }];
    const judged = (intermediate: string) => factSurvival(policy, intermediate).facts.find((f) => f.unit === 'prerequisite')?.status;
    expect(judged('The new payment must be exactly one payment method, different from the original one.')).toBe('survived');
    expect(judged('The user can choose any payment methods, different from the original one.')).toBe('changed');
  });
});
