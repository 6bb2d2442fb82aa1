/**
 * The wire's schema as one JSON Schema document (draft 2020-12), for consumers to validate what
 * they receive: `chessbridge schema` prints it, docs/schema/wire.schema.json holds it (a test keeps
 * the two equal), and docs/wire.md lists every field of it.
 *
 *   const doc = makeWireSchemaDocument();
 *   doc.$defs.event.anyOf.length;   // one member per event type
 */
import { REQUEST_ACTIONS, type RequestAction } from './requestSchema.js';
import { WIRE_SCHEMAS, type WireName } from './schema.js';

/** Where each request arrives. */
const REQUEST_CARRIERS = Object.fromEntries(
  REQUEST_ACTIONS.map(a => [
    `request_${a}`,
    `MQTT <base>/bridge/request/${a}; HTTP POST /api/arbiter/${a.replaceAll('_', '-')} (the same body)`,
  ]),
) as { readonly [A in RequestAction as `request_${A}`]: string };

/** Which topic or route carries each document. */
export const WIRE_CARRIERS: { readonly [N in WireName]: string } = {
  event: 'MQTT <base>/games/<game>/events',
  game: 'MQTT <base>/games/<game> (retained)',
  alert: 'MQTT <base>/alerts',
  board_state: 'MQTT <base>/boards/<board>/state (retained)',
  bridge_state: 'MQTT <base>/bridge/state (retained; the last will says offline)',
  bridge_info: 'MQTT <base>/bridge/info (retained)',
  bridge_health: 'MQTT <base>/bridge/health (periodic)',
  response: 'MQTT <base>/bridge/response/<action>; the answer of an HTTP request (/api/arbiter/<action>)',
  api_tournament: 'HTTP GET /api/tournament',
  api_rounds: 'HTTP GET /api/rounds',
  api_round: 'HTTP GET /api/rounds/N',
  api_game: 'HTTP GET /api/rounds/N/games/K',
  api_moves: 'HTTP GET /api/rounds/N/games/K/moves?from=P',
  api_boards: 'HTTP GET /api/boards (not under the broadcast delay: no position)',
  replay_line: 'chessbridge replay --json (PGN files, board scripts, journals, captures)',
  healthz: 'HTTP GET /healthz',
  journal_header: 'the journal: line 1 of <journal.dir>/games/<game>.jsonl',
  journal_record: 'the journal: every further line of a game file, and each write-ahead line’s `record`',
  ...REQUEST_CARRIERS,
};

/** A TypeBox schema as plain JSON Schema (TypeBox keeps its own marks in symbols, which JSON drops). */
const plain = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema)) as unknown;

export const makeWireSchemaDocument = (): Record<string, unknown> => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://chessbridge.invalid/schema/wire.schema.json',
  title: 'chessbridge wire',
  description:
    'Every message chessbridge publishes or answers with. Keys and enumerated values are snake_case; optional information is null unless a field is marked optional.',
  $defs: Object.fromEntries(
    (Object.keys(WIRE_SCHEMAS) as WireName[]).map(name => [
      name,
      { ...(plain(WIRE_SCHEMAS[name]) as object), $comment: WIRE_CARRIERS[name] },
    ]),
  ),
});
