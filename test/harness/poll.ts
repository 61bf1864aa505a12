/**
 * Runs a polling node's `poll()` the way an active n8n workflow does: n8n-core's own
 * PollTriggerExecutor (the code behind every cron tick and the poll at activation) with a real
 * PollContext over a Workflow whose static data lives on between ticks, and, when the poll emits,
 * the emitted items fed to WorkflowExecute as the trigger node's data in mode "trigger" (what
 * n8n's workflow runner does with them).
 */
import type { IDataObject, INode, INodeExecutionData, Workflow } from 'n8n-workflow';

import { ServicesTrigger } from '../../nodes/ServicesTrigger/ServicesTrigger.node';
import { closeLocalServers } from './localServer';
import type { TestCredentials } from './workflow';
import { createWorkflow, execute, poll, registerNodeType, SERVICES_TRIGGER_TYPE } from './workflow';

export interface PollTickResult {
	/** What the poll handed to `__emit` (one array per output), or null when it emitted nothing. */
	emitted: INodeExecutionData[][] | null;
	/** The error n8n received through `__emitError` (a failed production poll), if any. */
	error?: Error;
	/** The trigger node's output items in the execution the emit started ([] when nothing was emitted). */
	executionItems: INodeExecutionData[];
	/** A deep copy of the node's static data after the tick, plain JSON as n8n stores it. */
	staticData: IDataObject;
}

/**
 * An active poller: one Workflow (and so one static data object) for all its ticks, like one
 * activation of a workflow in n8n. `tick()` is a scheduled poll; `tick({ activation: true })` is the
 * poll n8n runs while activating, where an error is thrown to the activating user instead.
 */
export class ActivePoller {
	readonly workflow: Workflow;

	constructor(
		readonly node: INode,
		private readonly credentials: TestCredentials | undefined,
		staticData?: IDataObject,
	) {
		this.workflow = createWorkflow([node], staticData);
	}

	async tick({ activation = false, pollBudgetMs }: { activation?: boolean; pollBudgetMs?: number } = {}): Promise<PollTickResult> {
		const { emitted, error } = await poll({
			workflow: this.workflow,
			node: this.node,
			credentials: this.credentials,
			activation,
			pollBudgetMs,
		});
		const executionItems = emitted ? await this.runEmitted(emitted) : [];
		return { emitted, error, executionItems, staticData: this.staticData() };
	}

	/**
	 * "Fetch test event" in the editor: a manual execution of the trigger node over the same workflow,
	 * so a test can check it leaves the active poller's static data alone.
	 */
	async fetchTestEvent(): Promise<{
		items: INodeExecutionData[];
		error?: Record<string, unknown> & { message?: string; description?: string };
	}> {
		const { items, error } = await execute({
			workflow: this.workflow,
			node: this.node,
			credentials: this.credentials,
			main: [[{ json: {} }]],
		});
		return { items, error: error as never };
	}

	/** The node's static data as n8n would save it (JSON, without the change-tracking proxies). */
	staticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}

	private async runEmitted(emitted: INodeExecutionData[][]): Promise<INodeExecutionData[]> {
		const { items } = await execute({
			workflow: this.workflow,
			node: this.node,
			mode: 'trigger',
			credentials: this.credentials,
			main: emitted,
		});
		return items;
	}
}

/**
 * After a test of the trigger: real timers, the package's own trigger registered again (tests
 * register a wrapped one to stop a poll at a chosen point) and every loopback server closed.
 */
export async function restoreTrigger(): Promise<void> {
	jest.useRealTimers();
	registerNodeType(SERVICES_TRIGGER_TYPE, new ServicesTrigger());
	await closeLocalServers();
}
