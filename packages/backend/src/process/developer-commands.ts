/**
 * `listen` and `trigger` from the command line (command.ts): their flags checked, the backend and the admin token
 * found (backend-access.ts), then the command run; the exit code is the command's. Usage errors exit 2.
 */
import { fulfilmentEventTypes } from '../events/fulfilment-events.ts';
import { findBackend } from './backend-access.ts';

interface Flags {
  'forward-to'?: string | undefined;
  last?: string | undefined;
  events?: string | undefined;
  url?: string | undefined;
  token?: string | undefined;
}

const isHttpUrl = (value: string) => {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
};

export async function runDeveloperCommand(
  command: 'listen' | 'trigger',
  argument: string | undefined,
  flags: Flags,
  usage: string,
  refuse: (line: string) => void,
): Promise<number> {
  const usageError = (sentence: string) => {
    process.stderr.write(`${sentence}\n\n${usage}`);
    return 2;
  };
  if (flags.url !== undefined && !isHttpUrl(flags.url))
    return usageError(`--url ${flags.url} is not an http(s) URL.`);
  const out = (line: string) => process.stdout.write(`${line}\n`);

  if (command === 'trigger') {
    if (!argument)
      return usageError(`trigger needs an event type: one of ${fulfilmentEventTypes.join(', ')}.`);
    const access = findBackend(flags);
    if (typeof access === 'string') {
      refuse(access);
      return 1;
    }
    const { runTrigger } = await import('./trigger-command.ts');
    return runTrigger({ ...access, type: argument, out, refuse });
  }

  const forwardTo = flags['forward-to'];
  if (argument !== undefined) return usageError(`listen takes no argument ("${argument}").`);
  if (!forwardTo || !isHttpUrl(forwardTo))
    return usageError('listen needs --forward-to <url>, the http(s) URL of your local receiver.');
  const last = flags.last === undefined ? 0 : Number(flags.last);
  if (!Number.isInteger(last) || last < 0 || last > 200)
    return usageError(`--last ${flags.last} is not a whole number from 0 to 200.`);
  const events = flags.events?.split(',').map((type) => type.trim());
  const unknown = events?.filter((type) => !(fulfilmentEventTypes as readonly string[]).includes(type));
  if (unknown?.length)
    return usageError(
      `--events: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not an event' : 'are not events'} the backend sends; they are ${fulfilmentEventTypes.join(', ')}.`,
    );
  const access = findBackend(flags);
  if (typeof access === 'string') {
    refuse(access);
    return 1;
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  const { runListen } = await import('./listen-command.ts');
  return runListen({ ...access, forwardTo, last, events, out, refuse, signal: stop.signal });
}
