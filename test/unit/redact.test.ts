/**
 * The one redaction of the key (nodes/shared/redaction/redact.ts), by example: each rule of its comment, and
 * the texts of issue 23 that the first redactor let through or took seconds over. The properties over
 * random keys and texts are in redact.property.test.ts.
 */
import { makeRedactor, MIN_KEY_LENGTH, REDACTED } from '../../nodes/shared/redaction/redact';

const KEY = 'sk-live-PROPERTY-3e8b1f0c9a27d456';
const redact = makeRedactor(KEY);
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

describe('the key in each form the README names', () => {
	test.each([
		['as stored', KEY],
		['in another case', KEY.toUpperCase()],
		['with whitespace inside', `${KEY.slice(0, 10)}\n  ${KEY.slice(10, 20)} ${KEY.slice(20)}`],
		['percent-encoded, every byte', [...Buffer.from(KEY)].map((byte) => `%${byte.toString(16)}`).join('')],
		['inside a query string', `https://api.example.com/v2026/services?api_key=${encodeURIComponent(KEY)}`],
		['JSON-escaped', JSON.stringify({ key: KEY })],
		['\\u-escaped', [...KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
		['base64', base64(KEY)],
		['base64 of Bearer <key>', base64(`Bearer ${KEY}`)],
		['base64 of user:<key>', base64(`user:${KEY}`)],
		['URL-safe base64 of user:<key>', Buffer.from(`user:${KEY}`).toString('base64url')],
	])('%s', (_name, form) => {
		const output = redact(`before ${form} after`);
		expect(output).toContain(REDACTED);
		expect(output.startsWith('before ')).toBe(true);
		expect(output.endsWith(' after')).toBe(true);
		for (let index = 0; index + 8 <= KEY.length; index++)
			expect(output.toLowerCase()).not.toContain(KEY.slice(index, index + 8).toLowerCase());
	});
});

describe('a text cut at either end', () => {
	test('any 8 characters from the middle of the key are a window of it', () => {
		expect(redact(`id "${KEY.slice(5, 13)}" unknown`)).toBe(`id "${REDACTED}" unknown`);
		expect(redact(`id "${KEY.slice(5, 12)}" unknown`)).toBe(`id "${KEY.slice(5, 12)}" unknown`);
	});

	test('base64 of Bearer <key> cut after 30 characters (issue 23: the cut fragment reached the message)', () => {
		const cut = base64(`Bearer ${KEY}`).slice(0, 30);
		const output = redact(`next link ${cut}…`);
		// What is left is the encoded "Bearer " and the characters that mix it with the key.
		expect(output).toBe(`next link ${cut.slice(0, 10)}${REDACTED}…`);
	});

	test('a key holding escapes of its own, echoed as it is and cut inside one', () => {
		const key = '%41%42%43%44-%45%46%47\\n%48';
		const own = makeRedactor(key);
		for (let length = 8; length <= key.length; length++) expect(own(`<${key.slice(0, length)}>`)).toBe(`<${REDACTED}>`);
	});

	test("a `%` of the text whose escape takes the key's first character as its second digit, the rest percent-encoded", () => {
		// `%61` reads as `a`; read the other way, `%` and `6` (in no form of the key) come before the key.
		const key = '1xxxxxxx%';
		expect(makeRedactor(key)(`%61${'%78'.repeat(7)}`)).toBe(`%6${REDACTED}`);
	});

	test('the same after escapes that gave the look ahead room: the other way of `%61` reads as the text does up to `%78`, then finds the key', () => {
		// Before `%78` the other way of `%61` is the text's own reading (found already, or nothing); from it on, it is not.
		const key = '1xxxxxxx%';
		expect(makeRedactor(key)(`${'%7A'.repeat(12)}%61${'%78'.repeat(7)}`)).toBe(`${'%7A'.repeat(12)}%6${REDACTED}`);
	});

	test('such a key JSON-escaped: its `%41` as it is, its backslashes escaped', () => {
		const key = '%41\\%41\\%41\\%41\\%41';
		expect(makeRedactor(key)(JSON.stringify({ key }))).toBe(`{"key":"${REDACTED}"}`);
	});
});

describe('reading', () => {
	test('whitespace anywhere in an encoded key, also inside an escape, is read past', () => {
		const everyByte = [...Buffer.from(KEY)].map((byte) => `%${byte.toString(16)}`).join('');
		const wrapped = everyByte.replace(/(.{7})/g, '$1\n ');
		expect(wrapped).toMatch(/%\d\n \d/);
		expect(redact(`a ${wrapped} b`)).toBe(`a ${REDACTED} b`);
	});

	test('a non-ASCII key percent-encoded in another case, and \\u-escaped with surrogate pairs', () => {
		const key = 'clé-secrète-ü-🔑-0123';
		const own = makeRedactor(key);
		const escaped = JSON.stringify(key).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
		for (const form of [encodeURIComponent(key.toUpperCase()), key.toUpperCase(), escaped]) {
			expect(own(`before ${form} after`)).toMatch(/^before .?\[redacted\].? after$/);
		}
	});

	test('a character that only shares a byte with the key is kept', () => {
		// é is C3 A9, ê is C3 AA, ĩ is C4 A9: a run of the key ends inside ê, or begins inside ĩ.
		expect(makeRedactor('abcdefgh-é')('xx abcdefgh-ê yy')).toBe(`xx ${REDACTED}ê yy`);
		expect(makeRedactor('é-abcdefgh')('xx ĩ-abcdefgh yy')).toBe(`xx ĩ${REDACTED} yy`);
	});

	test('the `+` a key begins or ends with is no secret: left as the text writes it, the key between redacted', () => {
		const own = makeRedactor('++sk-live-0123456789+');
		expect(own('("++sk-live-0123456789+") a + b')).toBe(`("++${REDACTED}+") a + b`);
		expect(own(`("${encodeURIComponent('++sk-live-0123456789+')}") a + b`)).toBe(`("%2B%2B${REDACTED}%2B") a + b`);
	});

	test('runs of the key that touch, or lie only gaps apart, become one marker', () => {
		expect(redact(`${KEY}${KEY} ${KEY}`)).toBe(REDACTED);
	});
});

describe('keys that are mostly gaps, and short keys', () => {
	test('a key of 4 to 7 characters that are not gaps is matched whole, in any spacing', () => {
		const own = makeRedactor('a b c d e f');
		expect(own('x abcdef y a+b+c+d+e+f z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
		expect(own('abcde only')).toBe('abcde only');
	});

	test('a key of fewer such characters is found only in base64', () => {
		const key = 'a + b + c';
		const own = makeRedactor(key);
		expect(own('abc a b c')).toBe('abc a b c');
		expect(own(`Basic ${base64(`user:${key}`)}`)).toContain(REDACTED);
	});

	test.each(['', '   ', 'short', '1234567', undefined, 42])('key %p: texts are left alone', (key) => {
		expect(makeRedactor(key)('1234567 short texts')).toBe('1234567 short texts');
	});

	test('8 characters is the first length redacted', () => {
		expect(MIN_KEY_LENGTH).toBe(8);
		expect(makeRedactor('k3y-8chr')('key k3y-8chr!')).toBe(`key ${REDACTED}!`);
	});
});

describe('hostile texts of issue 23 (the first redactor took 6 to 8 s of CPU over 64 KB)', () => {
	const spaced = makeRedactor('Bearer sk-live-PROPERTY 3e8b1f0c9a27d456');

	test("whitespace runs after the key's first word: left as they are, the key still found", () => {
		const hostile = `Bearer${' \n\t '.repeat(16)}x`.repeat(64);
		expect(spaced(hostile)).toBe(hostile);
		expect(spaced(`${hostile}Bearer   sk-live-PROPERTY\n3e8b1f0c9a27d456`)).toBe(`${hostile}${REDACTED}`);
	});

	test("a redactor costs nothing until it has a text: each item's session makes one", () => {
		const meter = { steps: 0 };
		const own = makeRedactor(KEY, meter);
		expect(meter.steps).toBe(0);
		expect(own(KEY)).toBe(REDACTED);
		expect(meter.steps).toBeGreaterThan(0);
	});

	test('not a string: returned as it is', () => {
		expect(redact(undefined as unknown as string)).toBeUndefined();
	});

	test('redaction is idempotent', () => {
		const once = redact(`a ${KEY} b ${base64(`Bearer ${KEY}`)} c ${KEY.slice(3, 20)}`);
		expect(redact(once)).toBe(once);
	});
});
