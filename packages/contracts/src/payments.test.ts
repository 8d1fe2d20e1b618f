import { describe, expect, it } from 'vitest';
import {
  cardExpiry,
  foreignCardNumbers,
  liveCardRefusal,
  luhnValid,
  maskCardNumber,
  PAYMENT_CATALOGUE,
  PAYMENT_OUTCOME_WORDS,
  PAYMENT_OUTCOMES,
  PAYMENT_PROVIDERS,
  SANDBOX_CARD_NUMBERS,
  THREE_DS_OUTCOMES,
} from './payments.ts';

/** Luhn-valid numbers no provider publishes for its test mode here: what a live card looks like to the rule. */
const FOREIGN_VISA = '4012888888881881';
const FOREIGN_MASTERCARD = '5555555555554444';

describe('the sandbox card catalogue', () => {
  it('holds only Luhn-valid numbers, a card for every outcome of every provider', () => {
    for (const provider of PAYMENT_PROVIDERS) {
      const { cards, challenge } = PAYMENT_CATALOGUE[provider];
      expect(Object.keys(cards).sort()).toEqual([...PAYMENT_OUTCOMES].sort());
      for (const outcome of PAYMENT_OUTCOMES) {
        const card = cards[outcome];
        expect(luhnValid(card.number), `${provider} ${outcome}: ${card.number}`).toBe(true);
        // A 3-D Secure outcome says how its challenge is answered; no other card expects one.
        expect(Boolean(card.challenge), `${provider} ${outcome}`).toBe(THREE_DS_OUTCOMES.includes(outcome));
        expect(card.note).toMatch(/\.$/);
      }
      // A challenge either types an answer into its input, or its pass and fail are buttons.
      expect(challenge.frame.length).toBeGreaterThan(0);
      if (challenge.input) expect(challenge.submit.length).toBeGreaterThan(0);
    }
    for (const number of SANDBOX_CARD_NUMBERS) expect(foreignCardNumbers(number)).toEqual([]);
    for (const outcome of PAYMENT_OUTCOMES) expect(PAYMENT_OUTCOME_WORDS[outcome]).toMatch(/\S/);
  });

  it('tells a Luhn-valid number from one that is not', () => {
    expect(luhnValid(FOREIGN_VISA)).toBe(true);
    expect(luhnValid('4012888888881882')).toBe(false);
    expect(luhnValid('4012 8888 8888 1881')).toBe(false);
    expect(luhnValid('12345')).toBe(false);
  });

  it('types next December for a future expiry and last January for a past one', () => {
    const today = new Date('2026-06-15T12:00:00Z');
    expect(cardExpiry({ expiry: 'future' }, today)).toBe('12/27');
    expect(cardExpiry({ expiry: 'past' }, today)).toBe('01/25');
    expect(cardExpiry({ expiry: '03/30' }, today)).toBe('03/30');
    expect(cardExpiry({ expiry: 'future' }, new Date('2099-01-01T00:00:00Z'))).toBe('12/00');
  });
});

describe('foreignCardNumbers', () => {
  it('finds a Luhn-valid number outside the catalogue, however it is grouped, masked to its last four', () => {
    expect(foreignCardNumbers(`card=${FOREIGN_VISA}`)).toEqual(['•••• 1881']);
    expect(foreignCardNumbers('My card is 4012 8888 8888 1881.')).toEqual(['•••• 1881']);
    expect(foreignCardNumbers('{"number":"4012-8888-8888-1881"}')).toEqual(['•••• 1881']);
    // Followed by its expiry and CVC in the same run of digits.
    expect(foreignCardNumbers('4012 8888 8888 1881 12 27 123')).toEqual(['•••• 1881']);
    expect(foreignCardNumbers(`${FOREIGN_VISA} and ${FOREIGN_MASTERCARD}`)).toEqual(['•••• 1881', '•••• 4444']);
    // Each number once.
    expect(foreignCardNumbers(`${FOREIGN_VISA} ${FOREIGN_VISA}`.replace(' ', ', '))).toEqual(['•••• 1881']);
    expect(foreignCardNumbers(FOREIGN_VISA).join()).not.toContain('4012');
  });

  it('ignores the catalogue numbers, with or without what is typed after them', () => {
    expect(foreignCardNumbers('4242 4242 4242 4242')).toEqual([]);
    expect(foreignCardNumbers('4242 4242 4242 4242 123')).toEqual([]);
    expect(foreignCardNumbers('{"number":"4000002760003184","exp":"12/27","cvc":"123"}')).toEqual([]);
  });

  it('ignores digits that are no card: not Luhn-valid, too short or long, a timestamp, an identifier, a fraction', () => {
    expect(foreignCardNumbers('4012888888881882')).toEqual([]);
    expect(foreignCardNumbers('order 401288888888')).toEqual([]);
    expect(foreignCardNumbers('40128888888818810000001')).toEqual([]);
    // A Luhn-valid timestamp in milliseconds: no card network's numbers start with 1.
    expect(luhnValid('1732871234560')).toBe(true);
    expect(foreignCardNumbers('/beacon?t=1732871234560')).toEqual([]);
    expect(foreignCardNumbers(`id=a${FOREIGN_VISA}`)).toEqual([]);
    expect(foreignCardNumbers(`r=0.${FOREIGN_VISA}`)).toEqual([]);
    expect(foreignCardNumbers('')).toEqual([]);
  });

  it('says in the refusal what was refused and why, without the number', () => {
    expect(maskCardNumber(FOREIGN_VISA)).toBe('•••• 1881');
    const message = liveCardRefusal(foreignCardNumbers(FOREIGN_VISA));
    expect(message).toBe(
      "refused: •••• 1881 is a card number not in the sandbox catalogue; a payment test types only the providers' published test cards, so a live card can never be charged",
    );
    expect(message).not.toContain(FOREIGN_VISA);
  });
});
