/**
 * Who may do what: every endpoint but health is authenticated; roles viewer (ops: read),
 * submitter (procurement: submit, cancel own), admin (cancel any, manage runners). JWT in
 * production, configured users for a local stack — never a default password.
 */
package io.drivequal.service.security;
