/**
 * Alternate representations: {@link dev.machinery.unversioned.negotiation.AcceptHeader} and {@link
 * dev.machinery.unversioned.negotiation.MediaType} parse Accept headers (RFC 7231, RFC 6838);
 * {@link dev.machinery.unversioned.negotiation.Negotiator} chooses a {@link
 * dev.machinery.unversioned.negotiation.Representation} ({@code g}, {@code v}, {@code as}, {@code
 * sv}, {@code export}, {@code pretty}, aliases) and renders it (Table, CSV, PartialObjectMetadata,
 * Scale, export, Status in the {@code sv} version); {@link
 * dev.machinery.unversioned.negotiation.QueryOptions} decodes versioned options sent as query
 * parameters.
 */
package dev.machinery.unversioned.negotiation;
