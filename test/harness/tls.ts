/**
 * TLS for the loopback servers of the fault tests: certificates made with openssl at test time into
 * a temp folder (embedded ones when openssl is missing), and a way to trust the test CA.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

export interface Pem {
	key: string;
	cert: string;
}
let certDir: string | undefined;
export let caCert: string;
export let trustedLocal: Pem; // issued by the test CA for 127.0.0.1 and localhost
export let trustedWrongHost: Pem; // issued by the test CA for wrong-host.example only
export let selfSigned: Pem; // for 127.0.0.1, signed by itself

/**
 * Used only when `openssl` is missing (or FAULTS_TLS_FIXTURES=embedded): test-only certificates made
 * the same way, valid until 2126. The keys protect nothing: they exist for 127.0.0.1, localhost and
 * wrong-host.example in these tests.
 */
const EMBEDDED_TLS = {
	ca: `-----BEGIN CERTIFICATE-----
MIIBvTCCAWOgAwIBAgIUcOSUNbDJwTSlPfUR2aDgCpU73zEwCgYIKoZIzj0EAwIw
KzEpMCcGA1UEAwwgRmF1bHQgbWF0cml4IHRlc3QgQ0EgKHRlc3Qgb25seSkwIBcN
MjYxMTIxMDY0MTE0WhgPMjEyNjEwMjgwNjQxMTRaMCsxKTAnBgNVBAMMIEZhdWx0
IG1hdHJpeCB0ZXN0IENBICh0ZXN0IG9ubHkpMFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAErAtIr09cak7iqZ6FkAkAWTboj1l17Rt/jFjLFSVktohhFMhXteMRSU4R
Mm9p7hDaaPu9SrIZlVr3nScZgJw/j6NjMGEwHQYDVR0OBBYEFODn25TP/VLdU3Sy
GrN+5xfMJh3JMB8GA1UdIwQYMBaAFODn25TP/VLdU3SyGrN+5xfMJh3JMA8GA1Ud
EwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMCA0gAMEUCIE1h
dWZBxYFg9wmBTNZ5qBMvdxRB41iqddn0jo2MdgspAiEAwGSKVt5/FJmBx/uv2KuV
EMhfkcWeMb4clqmcEiIVn6M=
-----END CERTIFICATE-----`,
	local: {
		key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4jqV5l0ba18+8LMV
gO+oFed8CF9Rfa6NAoBi6EfSXbGhRANCAAQHFot7Y+5OOhq3yQoWmpqSDtNdRv+o
q9HyHKI9mo3yV1TT0E7/S+jhC1taww55j0956Hx0dOg5MOVQP9G0Wpy3
-----END PRIVATE KEY-----`,
		cert: `-----BEGIN CERTIFICATE-----
MIIBszCCAVigAwIBAgIUOZo0psgvDOAixXpuCmZJm56LGa8wCgYIKoZIzj0EAwIw
KzEpMCcGA1UEAwwgRmF1bHQgbWF0cml4IHRlc3QgQ0EgKHRlc3Qgb25seSkwIBcN
MjYxMTIxMDY0MTE0WhgPMjEyNjEwMjgwNjQxMTRaMBAxDjAMBgNVBAMMBWxvY2Fs
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEBxaLe2PuTjoat8kKFpqakg7TXUb/
qKvR8hyiPZqN8ldU09BO/0vo4QtbWsMOeY9Peeh8dHToOTDlUD/RtFqct6NzMHEw
GgYDVR0RBBMwEYcEfwAAAYIJbG9jYWxob3N0MBMGA1UdJQQMMAoGCCsGAQUFBwMB
MB0GA1UdDgQWBBRtJPLal8R1HFSIKiXt/OkjilbDaTAfBgNVHSMEGDAWgBTg59uU
z/1S3VN0shqzfucXzCYdyTAKBggqhkjOPQQDAgNJADBGAiEA43hZY2bCuTc4tCd2
T9B5DawiJkX6CQXYBDsHaqQLeKUCIQC5x/HOB9Uyi8hPHcYYy/XhGJxd6r+woGhu
lhBT6D7JOA==
-----END CERTIFICATE-----`,
	},
	wrongHost: {
		key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgWgnPA4iCOpZmgRIg
Xp4ITKK1HWutXrk1GU9SV44LuAWhRANCAARKRQf4ddo6RFs2hqN7K9OmNFy4W7fD
K4tZ2BdrpcvDAo44WbQahctfJ4yzyvz7+3EqxIvHtfBae4Fung5WHI6M
-----END PRIVATE KEY-----`,
		cert: `-----BEGIN CERTIFICATE-----
MIIBuzCCAWCgAwIBAgIUOZo0psgvDOAixXpuCmZJm56LGbAwCgYIKoZIzj0EAwIw
KzEpMCcGA1UEAwwgRmF1bHQgbWF0cml4IHRlc3QgQ0EgKHRlc3Qgb25seSkwIBcN
MjYxMTIxMDY0MTE0WhgPMjEyNjEwMjgwNjQxMTRaMBUxEzARBgNVBAMMCndyb25n
LWhvc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARKRQf4ddo6RFs2hqN7K9Om
NFy4W7fDK4tZ2BdrpcvDAo44WbQahctfJ4yzyvz7+3EqxIvHtfBae4Fung5WHI6M
o3YwdDAdBgNVHREEFjAUghJ3cm9uZy1ob3N0LmV4YW1wbGUwEwYDVR0lBAwwCgYI
KwYBBQUHAwEwHQYDVR0OBBYEFP6cmbsC7y+A7cS/vBrgAgCqjckyMB8GA1UdIwQY
MBaAFODn25TP/VLdU3SyGrN+5xfMJh3JMAoGCCqGSM49BAMCA0kAMEYCIQCYS5Oc
khKLZLOBmxKxLg0wLg//tUGsaa120Jv+v3mHwwIhANr3Pm9EzIIEiJoO70f/sbQH
NgWgMvaiu8bfZ18S7eHp
-----END CERTIFICATE-----`,
	},
	selfSigned: {
		key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgTVIuE8Wdz1aqIP2V
Jo5rNq8R1Bwpw12EMBkQf1w2ii6hRANCAARPgaTaeuVVRgB9Uba+DIxPFEruviry
Vrms4nzN91lNCr2FsMfoeUT/QxpiusLyXO9y+p7/oMLJKXzPnf9JoQYI
-----END PRIVATE KEY-----`,
		cert: `-----BEGIN CERTIFICATE-----
MIIBkTCCATagAwIBAgIUWYWxQz0MmUJ7G0iEPqfEliDQIMkwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMTA2NDExNFoYDzIxMjYxMDI4
MDY0MTE0WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARPgaTaeuVVRgB9Uba+DIxPFEruviryVrms4nzN91lNCr2FsMfoeUT/
QxpiusLyXO9y+p7/oMLJKXzPnf9JoQYIo2QwYjAdBgNVHQ4EFgQUXMx248rBGsQe
/S9JLFIdRCeiPBUwHwYDVR0jBBgwFoAUXMx248rBGsQe/S9JLFIdRCeiPBUwDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0kAMEYC
IQDfHRkMx4UzR5kMOI4AAqbUkeZStHFAvCRjbC9qbLWP/wIhAIlfpI47Rb5J5brV
erJRA/dhDkNOY2ye6Jphpssz62EU
-----END CERTIFICATE-----`,
	},
};

function openssl(cwd: string, ...args: string[]): void {
	execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

function makeCertificates(): void {
	const dir = mkdtempSync(join(tmpdir(), 'faults-tls-'));
	certDir = dir;
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(
		dir,
		'req',
		'-x509',
		...ec,
		'-keyout',
		'ca.key',
		'-out',
		'ca.crt',
		'-days',
		'2',
		'-subj',
		'/CN=Fault matrix test CA',
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
	);
	const issue = (name: string, san: string): Pem => {
		openssl(dir, 'req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
		writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
		openssl(
			dir,
			'x509',
			'-req',
			'-in',
			`${name}.csr`,
			'-CA',
			'ca.crt',
			'-CAkey',
			'ca.key',
			'-CAcreateserial',
			'-out',
			`${name}.crt`,
			'-days',
			'2',
			'-extfile',
			`${name}.ext`,
		);
		return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.crt`), 'utf8') };
	};
	caCert = readFileSync(join(dir, 'ca.crt'), 'utf8');
	trustedLocal = issue('local', 'IP:127.0.0.1,DNS:localhost');
	trustedWrongHost = issue('wrong-host', 'DNS:wrong-host.example');
	openssl(
		dir,
		'req',
		'-x509',
		...ec,
		'-keyout',
		'self.key',
		'-out',
		'self.crt',
		'-days',
		'2',
		'-subj',
		'/CN=127.0.0.1',
		'-addext',
		'subjectAltName=IP:127.0.0.1',
	);
	selfSigned = { key: readFileSync(join(dir, 'self.key'), 'utf8'), cert: readFileSync(join(dir, 'self.crt'), 'utf8') };
}

/** Makes (or loads) the certificates; call in beforeAll, and removeCertificates in afterAll. */
export function loadCertificates(): void {
	const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
	if (hasOpenssl && process.env.FAULTS_TLS_FIXTURES !== 'embedded') return makeCertificates();
	caCert = EMBEDDED_TLS.ca;
	trustedLocal = EMBEDDED_TLS.local;
	trustedWrongHost = EMBEDDED_TLS.wrongHost;
	selfSigned = EMBEDDED_TLS.selfSigned;
}

export function removeCertificates(): void {
	if (certDir) rmSync(certDir, { recursive: true, force: true });
	certDir = undefined;
}

/**
 * Node 20 reads extra trusted CAs only at start-up (NODE_EXTRA_CA_CERTS), so for the cases that need
 * a *trusted* certificate the test CA is handed to every TLS connection, the way a system CA would
 * be. Undone by jest.restoreAllMocks() (afterEach).
 */
export function trustTestCa(): void {
	const connect = tls.connect;
	jest.spyOn(tls, 'connect').mockImplementation(((...args: unknown[]) => {
		const [first] = args;
		if (typeof first === 'object' && first !== null && (first as tls.ConnectionOptions).ca === undefined) {
			args[0] = { ...(first as tls.ConnectionOptions), ca: [caCert] };
		}
		return (connect as (...a: unknown[]) => tls.TLSSocket).apply(tls, args);
	}) as typeof tls.connect);
}
