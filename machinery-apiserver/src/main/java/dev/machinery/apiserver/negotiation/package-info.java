/**
 * Alternate representations: {@link dev.machinery.apiserver.negotiation.AcceptHeader} and {@link
 * dev.machinery.apiserver.negotiation.MediaType} parse Accept headers (RFC 7231, RFC 6838); {@link
 * dev.machinery.apiserver.negotiation.Negotiator} chooses a {@link
 * dev.machinery.apiserver.negotiation.Representation} ({@code g}, {@code v}, {@code as}, {@code
 * sv}, {@code export}, {@code pretty}, aliases) and renders it (Table, CSV, PartialObjectMetadata,
 * Scale, export, Status in the {@code sv} version); {@link
 * dev.machinery.apiserver.negotiation.QueryOptions} decodes versioned options sent as query
 * parameters.
 */
package dev.machinery.apiserver.negotiation;
