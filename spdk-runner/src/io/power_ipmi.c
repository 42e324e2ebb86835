/*
 * The ipmi power driver: a lab cuts a server's (or a drive enclosure's) power through its BMC over
 * IPMI LAN, chassis power off for the cut and on for the restore. RMCP+ is not hand-rolled: the
 * kept tool ipmitool (lanplus) is run as a child with an argv, no shell, the password handed over
 * in its environment (-E reads IPMI_PASSWORD), never on a command line or in a message. As with
 * redfish the host does not see the cut coming; the engine lets go of the device after the cut and
 * reopens the namespace once it is back with the drive's serial and namespace id.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "contract/strutil.h"
#include "io/engine.h"
#include "io/power.h"
#include "power_sysfs.h"

#define IPMI_TIMEOUT_MS 60000 /* ipmitool's own retries (-N 2 -R 3) end well before */
#define IPMI_STDERR_MAX 512
#define POLL_MS 100

struct ipmi {
	const struct dq_io_engine *engine;
	struct dq_power_namespace ns;
	char host[DQ_POWER_URL_MAX + 1];
	char port[8]; /* "": ipmitool's default, 623 */
	char user[128];
	char password[128];
	char cipher_suite[4]; /* "": ipmitool asks the BMC for its suites */
	const char *tool;
	uint32_t restore_wait_ms;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

extern char **environ;

/* What the child runs, made before fork (a child of a threaded process may only call
 * async-signal-safe functions): argv, and the environment plus IPMI_PASSWORD. */
struct ipmi_command {
	const char *argv[20];
	char **envp;
	char password_var[160];
};

static int ipmi_command_make(const struct ipmi *ipmi, const char *action, struct ipmi_command *cmd)
{
	size_t count = 0, i, n = 0;

	cmd->argv[n++] = ipmi->tool;
	cmd->argv[n++] = "-I";
	cmd->argv[n++] = "lanplus";
	cmd->argv[n++] = "-H";
	cmd->argv[n++] = ipmi->host;
	if (ipmi->port[0] != '\0') {
		cmd->argv[n++] = "-p";
		cmd->argv[n++] = ipmi->port;
	}
	cmd->argv[n++] = "-U";
	cmd->argv[n++] = ipmi->user;
	cmd->argv[n++] = "-E";
	if (ipmi->cipher_suite[0] != '\0') {
		cmd->argv[n++] = "-C";
		cmd->argv[n++] = ipmi->cipher_suite;
	}
	cmd->argv[n++] = "-N";
	cmd->argv[n++] = "2";
	cmd->argv[n++] = "-R";
	cmd->argv[n++] = "3";
	cmd->argv[n++] = "chassis";
	cmd->argv[n++] = "power";
	cmd->argv[n++] = action;
	cmd->argv[n] = NULL;
	while (environ != NULL && environ[count] != NULL) {
		count++;
	}
	cmd->envp = calloc(count + 2, sizeof(*cmd->envp));
	if (cmd->envp == NULL) {
		return -ENOMEM;
	}
	for (i = n = 0; i < count; i++) {
		if (strncmp(environ[i], "IPMI_PASSWORD=", 14) != 0) {
			cmd->envp[n++] = environ[i];
		}
	}
	snprintf(cmd->password_var, sizeof(cmd->password_var), "IPMI_PASSWORD=%s", ipmi->password);
	cmd->envp[n] = cmd->password_var;
	return 0;
}

static void ipmi_command_free(struct ipmi_command *cmd)
{
	memset(cmd->password_var, 0, sizeof(cmd->password_var));
	free(cmd->envp);
}

/* The child: stderr to the pipe, stdout and stdin to /dev/null. */
static void ipmi_exec(const struct ipmi_command *cmd, int err_fd)
{
	static const char cannot[] = "cannot run ipmitool (is it installed?)";
	int null_fd = open("/dev/null", O_RDWR);

	if (null_fd >= 0) {
		dup2(null_fd, STDIN_FILENO);
		dup2(null_fd, STDOUT_FILENO);
	}
	dup2(err_fd, STDERR_FILENO);
	execvpe(cmd->argv[0], (char *const *)cmd->argv, cmd->envp);
	if (write(STDERR_FILENO, cannot, sizeof(cannot) - 1) < 0) {
		_exit(127);
	}
	_exit(127);
}

/* ipmitool's stderr, its lines joined by "; " (the BMC's words: a refused session, a completion
 * code). */
static void stderr_words(const char *text, char *out, size_t out_len)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *p = text; *p != '\0' && o + 1 < out_len; p++) {
		if (*p == '\n') {
			if (p[1] != '\0' && o > 0 && o + 3 < out_len) {
				out[o++] = ';';
				out[o++] = ' ';
			}
			continue;
		}
		out[o++] = *p;
	}
	out[o] = '\0';
	if (out[0] == '\0') {
		dq_strlcpy(out, "no message", out_len);
	}
}

/* ipmitool ... chassis power <action>: 0 when it exits 0, else -EIO (-ETIMEDOUT when killed after
 * IPMI_TIMEOUT_MS) with its exit status and stderr in err. */
static int ipmi_chassis_power(const struct ipmi *ipmi, const char *action, char *err,
			      size_t err_len)
{
	char text[IPMI_STDERR_MAX] = "", words[IPMI_STDERR_MAX];
	size_t len = 0;
	uint64_t deadline = now_ms() + IPMI_TIMEOUT_MS;
	int fds[2], status = 0, timed_out = 0;
	struct ipmi_command cmd;
	pid_t child;

	if (ipmi_command_make(ipmi, action, &cmd) != 0) {
		snprintf(err, err_len, "power driver ipmi: out of memory for ipmitool");
		return -ENOMEM;
	}
	if (pipe2(fds, O_CLOEXEC) != 0) {
		ipmi_command_free(&cmd);
		snprintf(err, err_len, "power driver ipmi: no pipe for ipmitool: %s",
			 strerror(errno));
		return -errno;
	}
	child = fork();
	if (child < 0) {
		int rc = -errno;

		close(fds[0]);
		close(fds[1]);
		ipmi_command_free(&cmd);
		snprintf(err, err_len, "power driver ipmi: cannot start ipmitool: %s",
			 strerror(-rc));
		return rc;
	}
	if (child == 0) {
		close(fds[0]);
		ipmi_exec(&cmd, fds[1]);
	}
	close(fds[1]);
	ipmi_command_free(&cmd);
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		uint64_t now = now_ms();
		char chunk[256];
		ssize_t n;

		if (now >= deadline) {
			timed_out = 1;
			kill(child, SIGKILL);
			break;
		}
		if (poll(&pfd, 1, (int)(deadline - now)) <= 0) {
			continue;
		}
		n = read(fds[0], chunk, sizeof(chunk));
		if (n <= 0) {
			break;
		}
		if (len + 1 < sizeof(text)) {
			size_t take = (size_t)n < sizeof(text) - 1 - len ? (size_t)n :
									   sizeof(text) - 1 - len;

			memcpy(text + len, chunk, take);
			len += take;
			text[len] = '\0';
		}
	}
	close(fds[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
	}
	stderr_words(text, words, sizeof(words));
	if (timed_out) {
		snprintf(err, err_len,
			 "power driver ipmi: chassis power %s at %s did not finish within %d ms "
			 "(ipmitool killed): %s",
			 action, ipmi->host, IPMI_TIMEOUT_MS, words);
		return -ETIMEDOUT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, err_len,
			 "power driver ipmi: chassis power %s at %s failed (ipmitool exit %d): %s",
			 action, ipmi->host, WIFEXITED(status) ? WEXITSTATUS(status) : -1, words);
		return -EIO;
	}
	return 0;
}

static int ipmi_cut(void *ctx, char *err, size_t err_len)
{
	struct ipmi *ipmi = ctx;
	int rc = ipmi_chassis_power(ipmi, "off", err, err_len);

	if (rc == 0) {
		ipmi->engine->ops->release(ipmi->engine->data);
	}
	return rc;
}

static int ipmi_restore(void *ctx, char *err, size_t err_len)
{
	struct ipmi *ipmi = ctx;
	char target[512];
	int rc = ipmi_chassis_power(ipmi, "on", err, err_len);

	if (rc != 0) {
		return rc;
	}
	for (uint32_t waited = 0; !dq_power_namespace_find(&ipmi->ns, target, sizeof(target));
	     waited += POLL_MS) {
		if (waited >= ipmi->restore_wait_ms) {
			snprintf(err, err_len,
				 "power driver ipmi: no namespace %s of serial '%s' came back "
				 "within %u ms of the BMC's power-on",
				 ipmi->ns.nsid, ipmi->ns.serial, ipmi->restore_wait_ms);
			return -ETIMEDOUT;
		}
		dq_power_sleep_ms(POLL_MS);
	}
	return ipmi->engine->ops->reopen(ipmi->engine->data, target, err, err_len);
}

static void ipmi_close(void *ctx)
{
	struct ipmi *ipmi = ctx;

	if (ipmi != NULL) {
		memset(ipmi->password, 0, sizeof(ipmi->password));
	}
	free(ipmi);
}

static const struct dq_power_driver_ops ipmi_ops = {
	.name = "ipmi",
	.cut = ipmi_cut,
	.restore = ipmi_restore,
	.close = ipmi_close,
};

/* "host" or "host:port" ("[v6]:port" for an IPv6 address) into ipmi->host and ipmi->port. */
static int split_host(const char *text, struct ipmi *ipmi)
{
	const char *colon = strrchr(text, ':');
	const char *open = text[0] == '[' ? text + 1 : NULL;
	const char *close = open != NULL ? strchr(open, ']') : NULL;

	if (open != NULL) {
		if (close == NULL || (close[1] != '\0' && close[1] != ':')) {
			return -EINVAL;
		}
		snprintf(ipmi->host, sizeof(ipmi->host), "%.*s", (int)(close - open), open);
		colon = close[1] == ':' ? close + 1 : NULL;
	} else if (colon != NULL && strchr(text, ':') == colon) {
		snprintf(ipmi->host, sizeof(ipmi->host), "%.*s", (int)(colon - text), text);
	} else {
		dq_strlcpy(ipmi->host, text, sizeof(ipmi->host));
		colon = NULL;
	}
	if (colon != NULL) {
		char *end;
		long port = strtol(colon + 1, &end, 10);

		if (colon[1] == '\0' || *end != '\0' || port < 1 || port > 65535) {
			return -EINVAL;
		}
		snprintf(ipmi->port, sizeof(ipmi->port), "%ld", port);
	}
	return ipmi->host[0] != '\0' ? 0 : -EINVAL;
}

int dq_power_ipmi_open(const struct dq_io_engine *engine, const struct dq_power_site *site,
		       const struct dq_pci_slot_paths *paths, const char *tool,
		       struct dq_power_driver *out, char *err, size_t err_len)
{
	char userpwd[256];
	struct ipmi *ipmi;
	int rc;

	if (site == NULL || site->ipmi_host == NULL || site->ipmi_credentials == NULL) {
		snprintf(err, err_len,
			 "power driver ipmi: the drive's allowlist entry names no %s (the BMC's "
			 "IPMI LAN address and the file of its user:password): nothing was written",
			 site == NULL || site->ipmi_host == NULL ? "powerIpmiHost" :
								   "powerIpmiCredentials");
		return -ENOENT;
	}
	if (engine->ops->release == NULL || engine->ops->reopen == NULL) {
		snprintf(err, err_len,
			 "power driver ipmi needs an engine that can let go of the drive while "
			 "its power is off; engine %s cannot",
			 engine->ops->name);
		return -ENOTSUP;
	}
	ipmi = calloc(1, sizeof(*ipmi));
	if (ipmi == NULL) {
		return -ENOMEM;
	}
	ipmi->engine = engine;
	ipmi->tool = tool;
	ipmi->restore_wait_ms = paths->restore_wait_ms;
	if (site->ipmi_cipher_suite != NULL) {
		dq_strlcpy(ipmi->cipher_suite, site->ipmi_cipher_suite, sizeof(ipmi->cipher_suite));
	}
	rc = split_host(site->ipmi_host, ipmi);
	if (rc != 0) {
		snprintf(err, err_len,
			 "power driver ipmi: powerIpmiHost '%s' is no host or host:port",
			 site->ipmi_host);
	}
	if (rc == 0) {
		rc = dq_power_namespace_of(engine, paths, "ipmi", &ipmi->ns, err, err_len);
	}
	if (rc == 0) {
		rc = dq_power_read_credentials("ipmi", site->ipmi_credentials, true, userpwd,
					       sizeof(userpwd), err, err_len);
	}
	if (rc == 0) {
		char *colon = strchr(userpwd, ':');

		*colon = '\0';
		if (strlen(userpwd) >= sizeof(ipmi->user) ||
		    strlen(colon + 1) >= sizeof(ipmi->password)) {
			snprintf(err, err_len,
				 "power driver ipmi: the user or password in %s is too long",
				 site->ipmi_credentials);
			rc = -EINVAL;
		} else {
			dq_strlcpy(ipmi->user, userpwd, sizeof(ipmi->user));
			dq_strlcpy(ipmi->password, colon + 1, sizeof(ipmi->password));
		}
		memset(userpwd, 0, sizeof(userpwd));
	}
	if (rc != 0) {
		ipmi_close(ipmi);
		return rc;
	}
	*out = (struct dq_power_driver){ .ops = &ipmi_ops, .ctx = ipmi };
	return 0;
}
