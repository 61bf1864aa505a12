/**
 * The waits between retries, as the node asks them of the transport's one pause
 * (nodes/shared/transport/retry.ts), still waited for real: what the node decided, exactly, whatever
 * the machine's load. A wall-clock bound on a whole run cannot tell "no wait" from the 500 ms
 * back-off on a loaded machine, where n8n's engine alone can take that long. Undone by
 * jest.restoreAllMocks() (call it in afterEach).
 */
import * as retry from '../../nodes/shared/transport/retry';

export function watchRetryWaits(): number[] {
	const waits: number[] = [];
	const pause = retry.pause;
	jest.spyOn(retry, 'pause').mockImplementation((ms, cancel) => {
		waits.push(ms);
		return pause(ms, cancel);
	});
	return waits;
}
