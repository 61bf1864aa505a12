/**
 * The clocks the Services Trigger reads, faked for a test: jest fakes Date and performance and
 * nothing else (sockets and timers run as usual). Time passing moves both; a step of the system
 * clock (NTP, a restored VM, another host) moves Date alone, as the trigger's monotonic clock
 * (nodes/ServicesTrigger/state/memory.ts readClock) must tell apart.
 */
export interface FakeClock {
	/** Time passes: the system clock and the monotonic one move together. */
	pass(ms: number): void;
	/** The system clock steps: Date moves, the monotonic clock does not. */
	step(ms: number): void;
}

export function fakeClock(start = Date.UTC(2026, 10, 27, 8)): FakeClock {
	jest.useFakeTimers({
		doNotFake: [
			'setTimeout',
			'clearTimeout',
			'setInterval',
			'clearInterval',
			'setImmediate',
			'clearImmediate',
			'nextTick',
			'queueMicrotask',
			'hrtime',
		],
		now: start,
	});
	return {
		pass: (ms) => jest.advanceTimersByTime(ms),
		step: (ms) => jest.setSystemTime(Date.now() + ms),
	};
}
