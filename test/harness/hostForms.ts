/**
 * Generated spellings of hosts, each with what it is: the oracle of the loopback rule's tests
 * (issue 34 item 4). The verdict comes from the generated address (a number, eight groups) or name,
 * never from a URL parser: IPv4 in every form WHATWG URL reads (1 to 4 parts, the last filling the
 * remaining bytes; decimal, 0x hex in either case, leading-0 octal, extra zeros; a final dot), IPv6
 * (groups in either case with zeros, `::` over any run of zero groups, a dotted IPv4 tail, mapped and
 * compatible IPv4), names (`localhost` in any case, with a final dot, under or over another name),
 * each optionally percent-encoded or written in fullwidth characters, which WHATWG maps back.
 */
import fc from 'fast-check';

export interface HostForm {
	/** As written in a URL's host part. */
	form: string;
	/** The plainest spelling of the same host (dotted decimal, eight groups, lower case): WHATWG reads both alike. */
	plain: string;
	/** The oracle: traffic to this host stays on this machine, and the rule should let plain http go there. */
	loopback: boolean;
}

const loopbackIpv4 = (address: number) => Math.floor(address / 2 ** 24) === 127;

const ipv4Address = fc.oneof(
	fc.integer({ min: 0, max: 2 ** 24 - 1 }).map((low) => 127 * 2 ** 24 + low),
	fc.integer({ min: 0, max: 2 ** 32 - 1 }),
	// Next to 127/8, and the addresses a reader might take for this machine.
	fc.constantFrom(0x7effffff, 0x80000000, 0, 0xffffffff, 0x7f000001, 0x0a000001, 0xc0a80001),
);

/** One number of a dotted IPv4 form, in a base WHATWG reads. */
const ipv4Number = (value: number) =>
	fc
		.record({ base: fc.constantFrom('dec', 'hex', 'HEX', 'oct'), zeros: fc.integer({ min: 0, max: 2 }), upper: fc.boolean() })
		.map(({ base, zeros, upper }) => {
			if (base === 'dec') return String(value);
			if (base === 'oct') return `0${'0'.repeat(zeros)}${value.toString(8)}`;
			const digits = value.toString(16);
			return `${base === 'hex' ? '0x' : '0X'}${'0'.repeat(zeros)}${upper ? digits.toUpperCase() : digits}`;
		});

const ipv4Host: fc.Arbitrary<HostForm> = fc
	.tuple(ipv4Address, fc.integer({ min: 1, max: 4 }), fc.boolean())
	.chain(([address, parts, finalDot]) => {
		const bytes = [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256);
		// The first parts are single bytes; the last holds all the bytes left.
		const values = [...bytes.slice(0, parts - 1), address % 2 ** (8 * (5 - parts))];
		return fc.tuple(...values.map(ipv4Number)).map((numbers) => ({
			form: `${numbers.join('.')}${finalDot ? '.' : ''}`,
			plain: bytes.join('.'),
			loopback: loopbackIpv4(address),
		}));
	});

type Groups = readonly number[];

/** The oracle for IPv6: `::1`, and 127.0.0.0/8 mapped into IPv6 (`::ffff:127.x.x.x`). */
function loopbackIpv6(groups: Groups): boolean {
	const zeros = (count: number) => groups.slice(0, count).every((group) => group === 0);
	if (zeros(7) && groups[7] === 1) return true;
	return zeros(5) && groups[5] === 0xffff && groups[6] >> 8 === 0x7f;
}

const group = fc.integer({ min: 0, max: 0xffff });
const ipv4Groups = ipv4Address.map((address) => [Math.floor(address / 2 ** 16), address % 2 ** 16]);

const ipv6Groups: fc.Arbitrary<Groups> = fc.oneof(
	fc.constant([0, 0, 0, 0, 0, 0, 0, 1]),
	ipv4Groups.map((tail) => [0, 0, 0, 0, 0, 0xffff, ...tail]),
	ipv4Groups.map((tail) => [0, 0, 0, 0, 0, 0, ...tail]),
	ipv4Groups.map((tail) => [0, 0, 0, 0, 0xffff, 0, ...tail]),
	ipv4Groups.map((tail) => [0x64, 0xff9b, 0, 0, 0, 0, ...tail]),
	fc.constantFrom([0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 2], [0xfe80, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1, 0]),
	fc.array(group, { minLength: 8, maxLength: 8 }),
);

const ipv6Host: fc.Arbitrary<HostForm> = ipv6Groups.chain((groups) =>
	fc
		.record({
			dottedTail: fc.boolean(),
			upper: fc.boolean(),
			pads: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }),
			compress: fc.nat(),
		})
		.map(({ dottedTail, upper, pads, compress }) => {
			const hexCount = dottedTail ? 6 : 8;
			let pieces = groups.slice(0, hexCount).map((value, index) => {
				const digits = value.toString(16).padStart(Math.min(4, value.toString(16).length + pads[index]), '0');
				return upper ? digits.toUpperCase() : digits;
			});
			// `::` over one run of zero groups, when there is one (any run WHATWG accepts, not only the longest).
			const runs: Array<[number, number]> = [];
			for (let start = 0; start < hexCount; start++) {
				for (let end = start; end < hexCount && groups[end] === 0; end++) runs.push([start, end + 1]);
			}
			let compressed = false;
			if (runs.length > 0 && compress % 3 !== 0) {
				const [start, end] = runs[compress % runs.length];
				pieces = [...pieces.slice(0, start), '', ...pieces.slice(end)];
				compressed = true;
			}
			let text = pieces.join(':');
			if (compressed) text = text === '' ? '::' : text.replace(/^:/, '::').replace(/:$/, '::');
			if (dottedTail) {
				const tail = `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
				text = text.endsWith('::') ? `${text}${tail}` : `${text}:${tail}`;
			}
			return {
				form: `[${text}]`,
				plain: `[${groups.map((value) => value.toString(16)).join(':')}]`,
				loopback: loopbackIpv6(groups),
			};
		}),
);

// Not `xn--…`: that is an IDNA label, which a URL must hold valid punycode in.
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/).filter((text) => !text.startsWith('xn--'));

/** `localhost` is this machine; an absolute `localhost.` is asked of DNS, and names around it are other hosts. */
const nameHost: fc.Arbitrary<HostForm> = fc
	.tuple(
		fc.constantFrom(
			'localhost',
			'localhost.',
			'sub.localhost',
			'localhost.tail',
			'localhostx',
			'xlocalhost',
			'127.0.0.1.tail',
			'127.0.0.1..',
		),
		label,
	)
	.map(([shape, name]) => {
		const plain = shape.replace(/sub|tail/, name);
		return { form: plain, plain, loopback: shape === 'localhost' };
	});

/** Letters in random case, and WHATWG's other readings of the same host: percent-encoded, fullwidth. */
const respelled = (host: HostForm): fc.Arbitrary<HostForm> =>
	fc
		.record({
			cases: fc.array(fc.boolean(), { minLength: host.form.length, maxLength: host.form.length }),
			spelling: fc.constantFrom('plain', 'plain', 'percent', 'fullwidth'),
			which: fc.array(fc.boolean(), { minLength: host.form.length, maxLength: host.form.length }),
		})
		.map(({ cases, spelling, which }) => {
			// Only names and IPv4 are percent-decoded and mapped; an IPv6 literal is read as written.
			const mappable = !host.form.startsWith('[');
			const form = [...host.form]
				.map((char, index) => {
					const cased = cases[index] ? char.toUpperCase() : char;
					if (!mappable || !which[index] || !/[a-z0-9.]/i.test(char)) return cased;
					if (spelling === 'percent') return `%${cased.charCodeAt(0).toString(16).padStart(2, '0')}`;
					// Fullwidth forms (U+FF01 to U+FF5E), which IDNA maps to ASCII.
					if (spelling === 'fullwidth') return String.fromCharCode(cased.charCodeAt(0) - 0x20 + 0xff00);
					return cased;
				})
				.join('');
			return { ...host, form };
		});

/** Any host, loopback or not, in any of its spellings. */
export const hostForm: fc.Arbitrary<HostForm> = fc.oneof(ipv4Host, ipv6Host, nameHost).chain(respelled);

/**
 * The network and broadcast addresses of 127.0.0.0/8 (also mapped into IPv6): loopback, so the rule lets
 * plain http go there, but the system connects to neither (ENETUNREACH), so no server can receive it.
 */
export const unconnectable = (host: HostForm) => /^127\.(0\.0\.0|255\.255\.255)$|^\[0:0:0:0:0:ffff:7f(00:0|ff:ffff)\]$/.test(host.plain);

/** The scheme as a user may type it: any case, and tabs or newlines inside, which WHATWG drops. */
export const httpScheme = fc
	.tuple(fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), fc.constantFrom('', '', '\t', '\n'), fc.nat(4))
	.map(([cases, noise, at]) => {
		const letters = [...'http'].map((char, index) => (cases[index] ? char.toUpperCase() : char)).join('');
		return `${letters.slice(0, at)}${noise}${letters.slice(at)}`;
	});

/** What a user may leave around a pasted address: spaces, a tab, a newline, a control character. */
export const around = fc.constantFrom('', '', ' ', '\t', '\n', '\u0001', ' \u001f');
