/**
 * The API server's HTTP endpoints: path parsing ({@link
 * dev.machinery.apiserver.request.RequestInfo}), discovery, version and OpenAPI ({@link
 * dev.machinery.apiserver.endpoints.DiscoveryHandler}), resources ({@link
 * dev.machinery.apiserver.endpoints.ResourceHandler}) and watches ({@link
 * dev.machinery.apiserver.endpoints.WatchStreams}). Internal to the module.
 */
package dev.machinery.apiserver.endpoints;
