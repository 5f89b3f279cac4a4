/**
 * Machinery's client, client-go's REST, dynamic and typed clients in one: a {@link
 * dev.machinery.client.Client} built over a {@link dev.machinery.client.transport.Transport} and a
 * Scheme hands out {@link dev.machinery.client.ResourceClient}s for typed classes or for {@code
 * Unstructured} objects, which speak every verb (get, list, watch, create, update, patch, apply,
 * delete, deletecollection, the status and scale subresources); failures are the library's typed
 * API errors; requests are rate-limited and retried as client-go does; resources are found from the
 * server's discovery. See {@code docs/client.md}.
 */
package dev.machinery.client;
