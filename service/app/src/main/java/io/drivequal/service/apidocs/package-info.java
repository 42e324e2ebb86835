/**
 * The API's description: the OpenAPI document springdoc serves at /v3/api-docs, made
 * deterministic (fixed server, security schemes, operation ids and tags named after the
 * features) so that the copy committed as docs/openapi.json, from which the typed Python
 * client is generated, can be compared with it byte for byte in meaning.
 */
package io.drivequal.service.apidocs;
