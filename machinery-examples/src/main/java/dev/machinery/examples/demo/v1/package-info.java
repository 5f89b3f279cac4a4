/**
 * Version {@code v1} of the sample's {@code demo.example.dev} group, where Rollouts are stored.
 * Conversions to and from the internal form are generated.
 */
@GenerateConversions(internalPackage = "dev.machinery.examples.demo.internal")
package dev.machinery.examples.demo.v1;

import dev.machinery.conversion.GenerateConversions;
