import { describe, expect, it } from 'vitest';
import { decideFactUpdate, type ExistingFact, extractFactCandidates, type FactCandidate } from '@/lib/memory/rules/facts';

// A Friday.
const NOW = new Date('2026-11-20T12:00:00Z');
const brief = (c: FactCandidate) => [c.slot, c.value, c.negated === true] as const;
const extract = (text: string) => extractFactCandidates(text, NOW).map(brief);

describe('a home or an employer read through the name a statement is about', () => {
  it.each([
    // The topic comes from the clause or from the rest of the sentence; the name from the preposition before it.
    ["These days I'm subletting a room in Utrecht", 'location', 'utrecht'],
    ['Label maker news: we are leasing a cottage in Kendal', 'location', 'kendal'],
    ['After a long search we finally landed in Bruges', null, null],
    ['I handed in my resignation and yesterday wrapped up my first fortnight at Vinted', 'work', 'vinted'],
    ['Monday was my first shift with Ocado', 'work', 'ocado'],
    ['I joined the logistics department at Maersk', 'work', 'maersk'],
    ['我已经从原来的单位辞职了，下个月初去顺丰报到', 'work', '顺丰'],
    ['两周前从滴滴离职了，下周三入职蔚来', 'work', '蔚来'],
    ['告诉你：我在青岛租了一间公寓', 'location', '青岛'],
    // Subjects dropped or taken by the work or the home itself.
    ['Picked up the keys to a terraced house in Preston on Saturday', 'location', 'preston'],
    ['Induction at Arup took the whole week', 'work', 'arup'],
    ['领导把我派到昆明了，以后就住在昆明', 'location', '昆明'],
  ])('%s → %s %s', (text, slot, value) => {
    const found = extract(text).filter(([, , negated]) => !negated);
    if (slot === null) expect(found).toEqual([]);
    else expect(found).toContainEqual([slot, value, false]);
  });

  it.each([
    // No topic, someone else's move, a past stay, an errand at a shop: no home, no employer.
    ['I had lunch with my team at Wagamama', 'work'],
    ['Our neighbour is moving to Portugal', 'location'],
    ['I joined a pottery class at Hackney', 'work'],
    ['我加入了一个读书会', 'work'],
    ['Met Priya for coffee at Monmouth yesterday', 'work'],
    ['We reserved a little apartment in Menton for the Easter holidays', 'location'],
    ['I booked a room in Ghent for the conference', 'location'],
  ])('%s → no current %s', (text, slot) => {
    expect(extract(text).filter(([s, , negated]) => s === slot && !negated)).toEqual([]);
  });
});

describe('tense and aspect place a statement: current state or past', () => {
  it.each([
    // Present, perfect and a change in the past tense all tell what holds now.
    ['I have been living in Ghent for two years', 'location', 'ghent'],
    ["I've been working at Hillcrest School since January", 'work', 'hillcrest school'],
    ['We relocated to Uppsala in March', 'location', 'uppsala'],
    ['From next week on I begin at Tessera Robotics', 'work', 'tessera robotics'],
    ['Nowadays I handle the payroll for Brightwell Farms', 'work', 'brightwell farms'],
    ["I've gone over to decaf", 'like', 'decaf'],
    ['目前我在苏宁上班', 'work', '苏宁'],
    ['我们一家去年搬到了珠海', 'location', '珠海'],
    ['我跳槽当产品经理了', 'work', '产品经理'],
    ['从下个月开始我到华润上班', 'work', '华润'],
    // A memory verb as a label announces what to remember.
    ['Save: as of October home is Aarhus', 'location', 'aarhus'],
  ])('%s → current %s %s', (text, slot, value) => {
    expect(extract(text)).toContainEqual([slot, value, false]);
  });

  it.each([
    // A past state, a past habit, an origin: kept as the user's past, valued by what it was.
    ['I worked as a lifeguard at the lido', 'work:lifeguard at the lido'],
    ['I used to rent a flat in Bergen', 'location:bergen'],
    ['Back then I lived in Cusco', 'location:cusco'],
    ['I was brought up in Kraków', 'origin:kraków'],
    ["I'm originally from Tartu", 'origin:tartu'],
    ['I spent my teens in Valparaíso', 'origin:valparaíso'],
    ['我年轻时在矿上当过工人', 'work:工人'],
    ['我从前住在拉萨', 'location:拉萨'],
    ['我家乡在云南大理', 'origin:云南大理'],
  ])('%s → past %s', (text, value) => {
    const found = extract(text);
    expect(found.filter(([slot]) => slot !== 'past')).toEqual([]);
    if (value) expect(found).toContainEqual(['past', value, false]);
  });

  it('a past habit or taste ends the current one it names, and is not kept', () => {
    expect(extract('I used to be keto')).toEqual([['diet', 'keto', true]]);
    expect(extract('我以前很喜欢喝奶茶')).toEqual([['like', '奶茶', true]]);
  });

  it('a birthday keeps its own slot', () => {
    expect(extract('I was born on 9 February 1988')).toEqual([['date', 'birthday:1988-02-09', false]]);
  });
});

describe('a past statement never replaces another current fact', () => {
  const home: ExistingFact = { id: 'home', slot: 'location', text: 'I live in Ghent', value: 'ghent' };
  const job: ExistingFact = { id: 'job', slot: 'work', text: 'I work at Tessera', value: 'tessera' };
  const decide = (text: string, known: ExistingFact[]) =>
    extractFactCandidates(text, NOW).flatMap((c) => decideFactUpdate(c, known).map((d) => [d.event, 'factId' in d ? d.factId : null]));

  it('an origin or another past home is added beside the current home', () => {
    expect(decide('I grew up in Kraków', [home, job])).toEqual([['ADD', null]]);
    expect(decide('我小时候住在拉萨', [home])).toEqual([['ADD', null]]);
  });

  it('a past state that names the current fact ends it', () => {
    expect(decide('I used to work at Tessera', [home, job])).toEqual([['UPDATE', 'job']]);
  });

  it('the same past twice is known', () => {
    const past: ExistingFact = { id: 'p', slot: 'past', text: 'I grew up in Kraków', value: 'origin:kraków' };
    expect(decide('I was raised in Kraków', [home, past])).toEqual([['NONE', 'p']]);
  });

  it('a current statement leaves the past alone and replaces the current fact', () => {
    const past: ExistingFact = { id: 'p', slot: 'past', text: 'I lived in Cusco', value: 'location:cusco' };
    expect(decide('These days home is Lima', [home, past])).toEqual([['UPDATE', 'home']]);
  });
});

describe('a plan said anew for the same place or person replaces the old one', () => {
  const decide = (text: string, known: ExistingFact[]) =>
    extractFactCandidates(text, NOW).flatMap((c) => decideFactUpdate(c, known).map((d) => [d.event, 'factId' in d ? d.factId : null]));
  const ferry: ExistingFact = {
    id: 'ferry',
    slot: 'plan',
    text: "I'm taking the ferry to Gdansk for the amber fair",
    value: 'taking ferry to gdansk for amber fair',
  };

  it('another way to the same named place is the same plan changed', () => {
    expect(decide("Change of plan: I'm flying to Gdansk instead.", [ferry])).toEqual([['UPDATE', 'ferry']]);
  });

  it('a plan naming somewhere else, or nowhere, is a plan of its own', () => {
    expect(decide("I'm taking the night bus to Poznan next week.", [ferry])).toEqual([['ADD', null]]);
    expect(decide("I'm going to repaint the hallway next weekend.", [ferry])).toEqual([['ADD', null]]);
  });

  it('a day both plans fall on names nothing', () => {
    const dentist: ExistingFact = { id: 'dentist', slot: 'plan', text: "Next Monday I'm seeing the dentist", value: 'seeing the dentist' };
    expect(decide("Next Monday I'm flying to Gdansk.", [dentist])).toEqual([['ADD', null]]);
  });
});
