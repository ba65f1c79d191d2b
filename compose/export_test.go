package compose

// Names the external tests (package compose_test) reach.
var (
	CheckMaster     = checkMaster
	EtcdPingWith    = etcdPingWith
	ZooKeeperDialer = zkTLSDialer
)
