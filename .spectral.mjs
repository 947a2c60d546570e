import { defined, schema } from '@stoplight/spectral-functions';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';

// Lint of the published API description (/docs/json) with the OWASP API Security ruleset, run by
// `npm run lint:api` (part of `npm run check`) on the document apps/server/src/cli/openapi.ts writes.
// Every rule the ruleset has stays on, except the ones below, each turned off or narrowed FOR A REASON.

/** Inputs only: the query, path and header parameters and the request bodies the server reads. */
const INPUT_STRINGS = [
  '$.paths[*][*].parameters[*]..[?(@ && @.type=="string")]',
  '$.paths[*][*].requestBody..[?(@ && @.type=="string")]',
];
const INPUT_ARRAYS = [
  '$.paths[*][*].parameters[*]..[?(@ && @.type=="array")]',
  '$.paths[*][*].requestBody..[?(@ && @.type=="array")]',
];

export default {
  extends: [[oas, 'recommended'], owasp],
  rules: {
    // Bounds (issue 12.7) protect the server from what it READS: every input string and list has a
    // declared maximum, checked here as an error. The answers are written by the server itself (and
    // checked against their schemas when sent), so their strings and lists are not bounded in the
    // document: the ruleset's rules are narrowed to inputs rather than filled with invented maxima.
    'owasp:api4:2023-string-limit': 'off',
    'owasp:api4:2023-array-limit': 'off',
    'vigia-input-string-limit': {
      message: 'Input string must specify maxLength, enum or const.',
      severity: 'error',
      given: INPUT_STRINGS,
      // biome-ignore lint/suspicious/noThenProperty: a Spectral rule's action is its `then`
      then: {
        function: schema,
        functionOptions: {
          schema: {
            type: 'object',
            anyOf: [{ required: ['maxLength'] }, { required: ['enum'] }, { required: ['const'] }],
          },
        },
      },
    },
    'vigia-input-array-limit': {
      message: 'Input array must specify maxItems.',
      severity: 'error',
      given: INPUT_ARRAYS,
      // biome-ignore lint/suspicious/noThenProperty: a Spectral rule's action is its `then`
      then: { field: 'maxItems', function: defined },
    },
    // Free text (names, search words, passwords, SKU text) has no pattern by nature; every input string
    // is bounded (rule above) and the ones with a shape (dates, currencies, cursors, e-mails) declare it.
    'owasp:api4:2023-string-restricted': 'off',
    // Only the public account endpoints (login, refresh, password reset) are rate-limited — per IP and
    // per e-mail — and only they declare 429 and the rate-limit headers. Signed-in endpoints are not
    // rate-limited today (each request is bounded by its input limits and the license); declaring a
    // 429 or headers they never send would make the document false. The header rule stays an error
    // for the operations that do declare a 429.
    'owasp:api4:2023-rate-limit-responses-429': 'off',
    'owasp:api4:2023-rate-limit': 'off',
    'vigia-rate-limit-headers': {
      message: 'A rate-limited operation must declare its rate-limit headers on 2XX and 4XX answers.',
      severity: 'error',
      given: "$.paths[*][?(@.responses && @.responses['429'])].responses[?(@property.match(/^(2|4)/))]",
      // biome-ignore lint/suspicious/noThenProperty: a Spectral rule's action is its `then`
      then: { field: 'headers.X-RateLimit-Limit', function: defined },
    },
    // The public routes (login, refresh, password reset, app-config, health, product pictures) cannot
    // require a token — the first ones create it, <img> tags cannot send one. Every other route
    // requires one and answers 401 without it: the route-walk test (apps/server/src/route-walk.test.ts)
    // checks that over the whole route table.
    'owasp:api2:2023-write-restricted': 'off',
    'owasp:api2:2023-read-restricted': 'off',
    'owasp:api8:2023-define-error-responses-401': 'off',
    // Routes with no parameters and no body cannot fail validation, so they declare no 400.
    'owasp:api8:2023-define-error-validation': 'off',
    // The API is served from the web app's own origin and sends no CORS headers (no cross-origin
    // access by design); declaring Access-Control-Allow-Origin would be false.
    'owasp:api8:2023-define-cors-origin': 'off',
    // Ids are the seed's numeric ids (sellers, products, classifications); access is enforced by the
    // license on every request, not by ids being hard to guess.
    'owasp:api1:2023-no-numeric-ids': 'off',
    // The seed's paths end in '/' (seed 000 §7, 001 §7) and clients call them verbatim.
    'path-keys-no-trailing-slash': 'off',
    // The API is part of one product, not published to third parties with a support contact.
    'info-contact': 'off',
  },
};
