/** Version v7beta1 of the Frobber API of api-changes.md; its conversions are all generated. */
@GenerateConversions(internalPackage = "dev.machinery.examples.frobber.internal")
package dev.machinery.examples.frobber.v7beta1;

import dev.machinery.conversion.GenerateConversions;
