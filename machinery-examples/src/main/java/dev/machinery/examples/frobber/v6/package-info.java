/**
 * Version v6 of the Frobber API of api-changes.md. Conversions to and from the internal form are
 * generated; {@link dev.machinery.examples.frobber.v6.FrobberConversions} holds the hand-written
 * part, the {@code param}/{@code params} rule.
 */
@GenerateConversions(internalPackage = "dev.machinery.examples.frobber.internal")
package dev.machinery.examples.frobber.v6;

import dev.machinery.conversion.GenerateConversions;
