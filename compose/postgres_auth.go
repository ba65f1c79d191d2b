package compose

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/jackc/pgx/v5"
)

// The local server's roles: the bootstrap superuser, used only to set the
// server up, and the role the lock runs as. Neither has a password another
// process could guess (generated, scram-sha-256 in pg_hba for every
// connection, the socket in a directory only the server's user can enter).
const (
	postgresSuperuser = "postgres"
	postgresLockRole  = "lockbench"
	postgresLockDB    = "lockbench"
)

// postgresAuth is the generated passwords of a local server.
type postgresAuth struct {
	super, lock string
}

func newPostgresAuth() (postgresAuth, error) {
	super, err := generatePassword()
	if err != nil {
		return postgresAuth{}, err
	}
	lock, err := generatePassword()
	return postgresAuth{super: super, lock: lock}, err
}

// writePwfile writes the superuser's password for initdb --pwfile into
// dir, readable by the server's user only; remove it once initdb ran.
func writePwfile(dir, password string, cred *syscall.Credential) (string, error) {
	name := filepath.Join(dir, "pwfile")
	if err := os.WriteFile(name, []byte(password+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("compose: %w", err)
	}
	if cred != nil {
		if err := os.Chown(name, int(cred.Uid), int(cred.Gid)); err != nil {
			return "", fmt.Errorf("compose: %w", err)
		}
	}
	return name, nil
}

// createLockRole makes the role the lock runs as: it may log in and owns
// its own database, nothing more (no superuser, no role or database
// creation, no server programs or files).
func createLockRole(ctx context.Context, superURL, password string) error {
	c, err := pgx.Connect(ctx, superURL)
	if err != nil {
		return fmt.Errorf("compose: postgres: %w", err)
	}
	defer c.Close(context.WithoutCancel(ctx))
	role := pgx.Identifier{postgresLockRole}.Sanitize()
	for _, q := range []string{
		// The password is hex (generatePassword): nothing to escape.
		"CREATE ROLE " + role + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD '" + password + "'",
		"CREATE DATABASE " + pgx.Identifier{postgresLockDB}.Sanitize() + " OWNER " + role,
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			return fmt.Errorf("compose: postgres: %w", err)
		}
	}
	return nil
}

// postgresURL is the connection URL of user on the local server at port.
func postgresURL(port int, user, password, db string) string {
	return fmt.Sprintf("postgres://%s:%s@%s/%s?sslmode=disable", user, password, hostPort(port), db)
}
