import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty, serviceFiltersProperty, simplifyProperty } from '../shared/parameters/descriptions';
import { parseServiceFilters } from '../shared/parameters/filters';
import { fetchServiceRecords } from '../shared/listing/listing';
import { toNodeError } from '../shared/errors/errors';
import { parameterReader, readSimplify, readSwitch } from '../shared/parameters/parameters';
import type { Redact } from '../shared/redaction/redact';
import { DESCRIPTION_MAX, foreign, MESSAGE_MAX, own, render, text } from '../shared/text/text';
import { readRequestLimits } from '../shared/parameters/limits';
import { credentialRedactor } from '../shared/transport/transport';
import { CREDENTIAL_TYPE } from '../shared/transport/types';
import { parseEvents } from './diff';
import { runPoll } from './poll';
import { readResync, resyncProperty } from './resync';
import type { StateText } from './state/state';
import { beginPoll } from './state/state';

/** Longest node name quoted in a log line (n8n lets a user name a node at length). */
const NODE_NAME_MAX = 120;

export class ServicesTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Services Trigger',
		name: 'servicesTrigger',
		icon: { light: 'file:../../icons/servicePlatform.svg', dark: 'file:../../icons/servicePlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "on " + [].concat($parameter["events"] || []).join(", ") }}',
		description: 'Starts the workflow when a service of a hosting platform account is created, changes status or specs, or is removed',
		defaults: { name: 'Services Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName:
					'The first poll after activation only records the current services; events are reported from the next poll on. Each event has an eventId: after an n8n restart the last events come again, marked "redelivered"',
				name: 'baselineNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['created', 'statusChanged', 'specsChanged', 'removed'],
				description: 'Which changes start the workflow; each change is one output item',
				options: [
					{
						name: 'Service Created',
						value: 'created',
						description: 'A service with an ID not listed at the previous poll',
					},
					{
						name: 'Service Removed',
						value: 'removed',
						description: 'A service listed at the previous poll is no longer listed',
					},
					{
						name: 'Specs Changed',
						value: 'specsChanged',
						description: 'The operating system, vCores, RAM or disk of a service changed',
					},
					{
						name: 'Status Changed',
						value: 'statusChanged',
						description: 'The status of a service changed (e.g. active to suspended)',
					},
				],
			},
			{
				...simplifyProperty,
				description:
					'Whether "service" in each event is one flat object (ID, name, alias, status, OS, vCores, RAM, disk) instead of the record as the API sent it',
			},
			{
				...serviceFiltersProperty,
				description: 'Only report events about services that match, now or before the change (a removed service: as last seen)',
			},
			{
				displayName: 'Confirm Mass Removals',
				name: 'confirmMassRemoval',
				type: 'boolean',
				validateType: 'boolean',
				default: true,
				description:
					'Whether to wait for the next poll to confirm that every service, or more than half of them, disappeared at once before reporting them removed. A platform that briefly lists no services would otherwise report every service removed, then created again.',
			},
			resyncProperty,
			requestOptionsProperty,
		],
	};

	/**
	 * Lists the services, compares them with the remembered list of the last successful poll and
	 * returns one item per event (null when nothing happened), each with an eventId, a sequence
	 * number and whether it may have been delivered before (at-least-once delivery: poll.ts,
	 * docs/trigger.md). A failed poll throws the mapped error and leaves the state as it was. In
	 * manual mode ("Fetch test event") it returns one event and never writes the state.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const node = this.getNode();
		const workflowId = this.getWorkflow().id;
		const credentialId = node.credentials?.[CREDENTIAL_TYPE]?.id ?? null;
		// Numbered before anything else: a poll that ends after a later one was applied reports nothing (n8n starts each at its time).
		const ticket = beginPoll({ workflowId, node, credentialId });
		const redact = await credentialRedactor.call(this, 0);
		const asNodeError = <T>(run: () => T): T => {
			try {
				return run();
			} catch (error) {
				throw toNodeError(node, error, { itemIndex: 0, redact });
			}
		};

		// Every value an expression may give has one meaning or is a parameter error (docs/parameters.md).
		const read = parameterReader(this, 0);
		const events = asNodeError(() => parseEvents(read('events', [])));
		const filters = asNodeError(() => parseServiceFilters(read('filters', {})));
		const simplify = asNodeError(() => readSimplify(read));
		const confirmMassRemoval = asNodeError(() => readSwitch(read, 'confirmMassRemoval', own('Confirm Mass Removals'), true));
		const resync = asNodeError(() => readResync(read));
		// Timeout, Max Response Size and retries; the timeout stays within n8n's poll budget.
		const limits = asNodeError(() => readRequestLimits.call(this, 0));

		const records = await fetchServiceRecords.call(this, { itemIndex: 0, limits });

		return asNodeError(() =>
			runPoll({
				staticData: this.getWorkflowStaticData('node'),
				globalData: this.getWorkflowStaticData('global'),
				workflowId,
				node,
				credentialId,
				ticket,
				activationMode: this.getActivationMode(),
				manual: this.getMode() === 'manual',
				warn: (said) => this.logger.warn(stateWarning(node.name, said, redact)),
				records,
				events,
				filters,
				simplify,
				confirmMassRemoval,
				resync,
			}),
		);
	}
}

/** A line of n8n's log about the remembered list: the node's name and what was wrong, rendered as an error is. */
function stateWarning(nodeName: string, said: StateText, redact: Redact): string {
	return render(
		text`Services Trigger "${foreign(nodeName, NODE_NAME_MAX)}": ${said.message}. ${said.description}`,
		redact,
		MESSAGE_MAX + DESCRIPTION_MAX,
	);
}
