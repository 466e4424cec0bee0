// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice The part of ERC-20 this contract uses to return tokens sent by mistake.
interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @notice The part of ERC-721 this contract uses to return NFTs sent by mistake, or hand them to an heir after release.
interface IERC721Minimal {
    function ownerOf(uint256 tokenId) external view returns (address);
    function transferFrom(address from, address to, uint256 tokenId) external;
}

/// @title CommonLawInheritance: inheritance contract (common-law.switch-grace.guardians)
/// @notice Shares follow a common-law plan (freedom of testation), checked off-chain before deployment.
/// @dev Dead man's switch: released after the last check-in plus the interval plus a grace period. Pull payments, accounting by total received; bounded loops; authorization by msg.sender only.
contract CommonLawInheritance {
    /// @notice Upper bound on beneficiaries, so every loop is bounded.
    uint256 public constant MAX_BENEFICIARIES = 50;
    /// @notice Shares are in basis points and sum to this.
    uint256 public constant TOTAL_SHARES = 10_000;
    /// @notice Inheritance template this contract was generated from.
    string public constant TEMPLATE = "common-law";
    /// @notice Longest check-in interval.
    uint256 public constant MAX_INTERVAL_DAYS = 3650;
    /// @notice Longest grace period.
    uint256 public constant MAX_GRACE_DAYS = 365;
    /// @notice Upper bound on guardians.
    uint256 public constant MAX_GUARDIANS = 10;
    /// @notice Shortest wait the plan may set.
    uint256 public constant MIN_GUARDIAN_WAIT = 7 days;
    /// @notice Longest wait the plan may set.
    uint256 public constant MAX_GUARDIAN_WAIT = 365 days;
    /// @notice Most vetoes the plan may allow.
    uint256 public constant MAX_VETO_LIMIT = 10;

    address private immutable _owner;
    uint256 private immutable _interval;
    uint256 private immutable _grace;
    uint256 private immutable _threshold;
    /// @notice How long the owner has to answer the guardians' confirmed early release with any sign of life, which cancels it.
    uint256 private immutable _guardianWait;
    /// @notice Vetoes that may postpone a release after the owner's last sign of life; then the release proceeds.
    uint256 private immutable _maxVetoes;
    uint256 private _lock = 1;
    bool private _cancelled;
    uint256 private _lastCheckIn;
    address[] private _beneficiaries;
    mapping(address => uint256) private _shares;
    uint256 private _totalClaimed;
    mapping(address => uint256) private _claimed;
    address[] private _guardians;
    mapping(address => bool) private _isGuardian;
    uint256 private _round;
    mapping(uint256 => mapping(address => bool)) private _releaseVoted;
    mapping(uint256 => uint256) private _releaseVotes;
    /// @notice When the guardians' confirmed early release takes effect (0: none); the owner's sign of life clears it.
    uint256 private _guardianReleaseAt;
    mapping(uint256 => mapping(address => bool)) private _vetoVoted;
    mapping(uint256 => uint256) private _vetoVotes;
    /// @notice Vetoes that postponed the release since the owner's last sign of life.
    uint256 private _vetoesUsed;
    /// @notice Per token: the claim round; a new one starts when every share has claimed and a balance is left or arrives.
    mapping(address => uint256) private _tokenRound;
    /// @notice Per token: basis points of the shares that claimed in the current round.
    mapping(address => uint256) private _tokenOut;
    /// @notice Per token: the round total each unclaimed share is owed its basis points of; scaled with the balance when it rises or falls, so gains and losses fall only on the shares still unclaimed.
    mapping(address => uint256) private _tokenTotal;
    /// @notice Per token: the balance recorded after the last claim.
    mapping(address => uint256) private _tokenHeld;
    /// @notice Per token and beneficiary: the round of its last claim plus one (0: never claimed).
    mapping(address => mapping(address => uint256)) private _tokenClaimedIn;

    /// @notice Only the owner may call this.
    error NotOwner();
    /// @notice The estate is not released yet.
    error NotReleased();
    /// @notice The estate is already released.
    error AlreadyReleased();
    /// @notice The owner cancelled this contract.
    error ContractCancelled();
    /// @notice The zero address is not allowed here.
    error ZeroAddress();
    /// @notice An address is listed twice.
    error DuplicateAddress(address account);
    /// @notice Shares must be positive and sum to TOTAL_SHARES.
    error InvalidShares();
    /// @notice A list is empty or longer than its bound.
    error InvalidCount();
    /// @notice Parallel lists differ in length.
    error LengthMismatch();
    /// @notice Nothing is due to the caller.
    error NothingToClaim();
    /// @notice Sending ETH failed.
    error TransferFailed(address to);
    /// @notice The contract holds less than requested.
    error InsufficientBalance();
    /// @notice A guarded function was re-entered.
    error Reentrancy();
    /// @notice The token address holds no code.
    error NotAContract(address token);
    /// @notice An ERC-20 transfer failed.
    error TokenTransferFailed(address token);
    /// @notice Only the heir with the largest share takes an unlisted NFT.
    error NotNftHeir();
    /// @notice The contract does not hold this NFT (or the token is not an ERC-721).
    error NftNotHeld(address token, uint256 tokenId);
    /// @notice Interval or grace period out of range.
    error InvalidInterval();
    /// @notice The check-in deadline has passed; the owner can no longer change the plan.
    error DeadlinePassed();
    /// @notice Only a guardian may call this.
    error NotGuardian();
    /// @notice The threshold must be between 1 and the number of guardians.
    error InvalidThreshold();
    /// @notice This guardian already voted in this round.
    error AlreadyConfirmed();
    /// @notice The guardian wait must be between MIN_GUARDIAN_WAIT and MAX_GUARDIAN_WAIT.
    error InvalidGuardianWait();
    /// @notice A veto is only possible during the grace period.
    error NotInGracePeriod();
    /// @notice The guardians already postponed the release maxVetoes() times since the owner's last sign of life.
    error VetoLimitReached();
    /// @notice The veto bound must be at most MAX_VETO_LIMIT.
    error InvalidVetoLimit();

    /// @notice The owner checked in or acted (proof of life), or guardians vetoed a trigger; the deadline moved.
    event CheckedIn(uint256 newDeadline);
    /// @notice The beneficiaries and their shares were set.
    event BeneficiariesUpdated(address[] beneficiaries, uint16[] shares);
    /// @notice ETH was received.
    event Deposited(address indexed from, uint256 amount);
    /// @notice A beneficiary claimed ETH.
    event Claimed(address indexed beneficiary, uint256 amount);
    /// @notice The owner withdrew ETH.
    event Withdrawn(address indexed to, uint256 amount);
    /// @notice The owner cancelled the contract; every asset is returned to the owner one by one.
    event Cancelled();
    /// @notice cancel() could not return this asset (ETH: asset 0); the owner retries with withdraw(), rescueToken() or rescueNft().
    event ReturnFailed(address indexed asset, uint256 amountOrTokenId);
    /// @notice The owner took back ERC-20 tokens (unlisted, or any after cancel).
    event TokenRescued(address indexed token, uint256 amount);
    /// @notice The owner took back an NFT (unlisted, or any after cancel).
    event NftRescued(address indexed token, uint256 indexed tokenId);
    /// @notice After release, the heir with the largest share took an NFT the plan did not list.
    event UnlistedNftClaimed(address indexed token, uint256 indexed tokenId, address indexed recipient);
    /// @notice A guardian confirmed an early release.
    event ReleaseConfirmed(address indexed guardian, uint256 round, uint256 confirmations);
    /// @notice The guardians' quorum confirmed an early release; it takes effect at releaseAt unless the owner shows a sign of life first.
    event ReleaseProposed(uint256 releaseAt);
    /// @notice A guardian vetoed the trigger during the grace period.
    event TriggerVetoed(address indexed guardian, uint256 round, uint256 vetoes);
    /// @notice A beneficiary claimed ERC-20 tokens.
    event TokenClaimed(address indexed token, address indexed beneficiary, uint256 amount);

    /// @notice Restricts a function to the owner.
    modifier onlyOwner() {
        if (msg.sender != _owner) {
            revert NotOwner();
        }
        _;
    }

    /// @notice Blocks re-entry into guarded functions.
    modifier nonReentrant() {
        if (_lock != 1) {
            revert Reentrancy();
        }
        _lock = 2;
        _;
        _lock = 1;
    }

    /// @notice Not cancelled, not released and before the deadline. The action is proof of life.
    modifier ownerInControl() {
        if (_cancelled) {
            revert ContractCancelled();
        }
        if (isReleased()) {
            revert AlreadyReleased();
        }
        if (block.timestamp >= deadline()) {
            revert DeadlinePassed();
        }
        _proveLife();
        _;
    }

    /// @notice Cancelled, or live (not released and before the deadline; then the action is proof of life).
    modifier liveOrCancelled() {
        if (!_cancelled) {
            if (isReleased()) {
                revert AlreadyReleased();
            }
            if (block.timestamp >= deadline()) {
                revert DeadlinePassed();
            }
            _proveLife();
        }
        _;
    }

    /// @notice The estate is released and the contract not cancelled.
    modifier whenReleased() {
        if (_cancelled) {
            revert ContractCancelled();
        }
        if (!isReleased()) {
            revert NotReleased();
        }
        _;
    }

    /// @notice Restricts a function to the guardians.
    modifier onlyGuardian() {
        if (!_isGuardian[msg.sender]) {
            revert NotGuardian();
        }
        _;
    }

    /// @notice Sets up the estate; ETH sent along is deposited.
    /// @param owner_ Owner of the estate: checks in, updates, withdraws or cancels.
    /// @param beneficiaries_ Beneficiary addresses (1 to MAX_BENEFICIARIES).
    /// @param shares_ Shares in basis points, parallel to beneficiaries_, summing to TOTAL_SHARES.
    /// @param intervalDays_ Days after the last check-in before the switch triggers.
    /// @param graceDays_ Days after the deadline before the estate is released.
    /// @param guardians_ Guardian addresses (1 to MAX_GUARDIANS).
    /// @param guardianRules_ How many guardians must agree (m of n); the days the owner has to answer the guardians' early release (MIN_GUARDIAN_WAIT to MAX_GUARDIAN_WAIT); the vetoes allowed after each sign of life of the owner (0 to MAX_VETO_LIMIT).
    constructor(address owner_, address[] memory beneficiaries_, uint16[] memory shares_, uint256 intervalDays_, uint256 graceDays_, address[] memory guardians_, uint256[3] memory guardianRules_) payable {
        if (owner_ == address(0)) {
            revert ZeroAddress();
        }
        _owner = owner_;
        if (intervalDays_ == 0 || intervalDays_ > MAX_INTERVAL_DAYS) {
            revert InvalidInterval();
        }
        _interval = intervalDays_ * 1 days;
        if (graceDays_ > MAX_GRACE_DAYS) {
            revert InvalidInterval();
        }
        _grace = graceDays_ * 1 days;
        uint256 guardianCount = guardians_.length;
        if (guardianCount == 0 || guardianCount > MAX_GUARDIANS) {
            revert InvalidCount();
        }
        uint256 threshold_ = guardianRules_[0];
        if (threshold_ == 0 || threshold_ > guardianCount) {
            revert InvalidThreshold();
        }
        for (uint256 i; i < guardianCount; ++i) {
            address guardian = guardians_[i];
            if (guardian == address(0)) {
                revert ZeroAddress();
            }
            if (guardian == owner_ || _isGuardian[guardian]) {
                revert DuplicateAddress(guardian);
            }
            _isGuardian[guardian] = true;
            _guardians.push(guardian);
        }
        _threshold = threshold_;
        if (guardianRules_[1] < MIN_GUARDIAN_WAIT / 1 days || guardianRules_[1] > MAX_GUARDIAN_WAIT / 1 days) {
            revert InvalidGuardianWait();
        }
        _guardianWait = guardianRules_[1] * 1 days;
        if (guardianRules_[2] > MAX_VETO_LIMIT) {
            revert InvalidVetoLimit();
        }
        _maxVetoes = guardianRules_[2];
        _setBeneficiaries(beneficiaries_, shares_);
        _lastCheckIn = block.timestamp;
        emit CheckedIn(block.timestamp + intervalDays_ * 1 days);
        if (msg.value > 0) {
            emit Deposited(msg.sender, msg.value);
        }
    }

    /// @notice The owner of the estate.
    /// @return The owner address.
    function owner() external view returns (address) {
        return _owner;
    }

    /// @notice Time of the last check-in (or of deployment).
    /// @return Unix time in seconds.
    function lastCheckIn() external view returns (uint256) {
        return _lastCheckIn;
    }

    /// @notice End of the check-in interval: the last check-in plus the interval.
    /// @return Unix time in seconds.
    function deadline() public view returns (uint256) {
        return _lastCheckIn + _interval;
    }

    /// @notice The check-in interval.
    /// @return Days.
    function intervalDays() external view returns (uint256) {
        return _interval / 1 days;
    }

    /// @notice When the estate is released without a check-in: the deadline plus the grace period.
    /// @return Unix time in seconds.
    function releaseTime() public view returns (uint256) {
        return deadline() + _grace;
    }

    /// @notice The grace period after the deadline.
    /// @return Days.
    function gracePeriodDays() external view returns (uint256) {
        return _grace / 1 days;
    }

    /// @notice Whether beneficiaries can claim now.
    /// @return True once released and unless cancelled.
    function isReleased() public view returns (bool) {
        if (_cancelled) {
            return false;
        }
        return block.timestamp >= releaseTime() || (_guardianReleaseAt != 0 && block.timestamp >= _guardianReleaseAt);
    }

    /// @notice Whether the owner cancelled the contract.
    /// @return True if cancelled.
    function cancelled() external view returns (bool) {
        return _cancelled;
    }

    /// @notice The beneficiaries and their shares.
    /// @return Beneficiary addresses.
    /// @return Shares in basis points.
    function beneficiaries() external view returns (address[] memory, uint256[] memory) {
        uint256 n = _beneficiaries.length;
        uint256[] memory shareList = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            shareList[i] = _shares[_beneficiaries[i]];
        }
        return (_beneficiaries, shareList);
    }

    /// @notice Share of an account.
    /// @param account The account.
    /// @return Basis points of the estate (0 if not a beneficiary).
    function shareOf(address account) external view returns (uint256) {
        return _shares[account];
    }

    /// @notice ETH already claimed by an account.
    /// @param account The account.
    /// @return Wei claimed.
    function claimedBy(address account) external view returns (uint256) {
        return _claimed[account];
    }

    /// @notice All ETH this contract has received that remains shared: balance plus claims.
    /// @return Wei.
    function totalReceived() public view returns (uint256) {
        return address(this).balance + _totalClaimed;
    }

    /// @notice ETH an account can claim now.
    /// @param account The account.
    /// @return Wei due now (0 before release).
    function claimable(address account) external view returns (uint256) {
        if (!isReleased()) {
            return 0;
        }
        return _pending(account);
    }

    /// @notice Owner proves being alive: the deadline becomes now plus the interval. Also possible during the grace period.
    /// @dev Every other owner action (deposit, update, withdrawal, rescue) is proof of life too. Also clears pending guardian votes and cancels the guardians' pending early release, and gives the guardians their maxVetoes() vetoes again.
    function checkIn() external onlyOwner {
        if (_cancelled) {
            revert ContractCancelled();
        }
        if (isReleased()) {
            revert AlreadyReleased();
        }
        _proveLife();
    }

    /// @notice Replaces the beneficiaries and their shares (owner only, before the deadline).
    /// @param beneficiaries_ New beneficiary addresses.
    /// @param shares_ New shares in basis points, summing to TOTAL_SHARES.
    function updateBeneficiaries(address[] calldata beneficiaries_, uint16[] calldata shares_) external onlyOwner ownerInControl {
        _setBeneficiaries(beneficiaries_, shares_);
    }

    /// @notice Owner takes ETH back before the deadline, or after cancel().
    /// @param amount Wei to withdraw.
    function withdraw(uint256 amount) external onlyOwner liveOrCancelled nonReentrant {
        if (amount > address(this).balance) {
            revert InsufficientBalance();
        }
        emit Withdrawn(_owner, amount);
        _sendEth(_owner, amount);
    }

    /// @notice Owner cancels the plan and takes every asset back (before the deadline).
    /// @dev Each asset is returned on its own: one that cannot be sent (paused, blocklisted) emits ReturnFailed and is retried with withdraw(), rescueToken() or rescueNft(). The contract stops accepting deposits and claims.
    function cancel() external onlyOwner ownerInControl nonReentrant {
        _cancelled = true;
        emit Cancelled();
        uint256 amount = address(this).balance;
        if (amount > 0) {
            (bool ok, ) = payable(_owner).call{value: amount}("");
            if (ok) {
                emit Withdrawn(_owner, amount);
            } else {
                emit ReturnFailed(address(0), amount);
            }
        }
    }

    /// @notice The heir who takes, after release, an NFT the plan does not list.
    /// @dev The beneficiary with the largest share; the first listed one at a tie.
    /// @return The heir address.
    function unlistedNftHeir() external view returns (address) {
        return _nftHeir();
    }

    /// @notice After release, the heir with the largest share takes an NFT the plan does not list (sent with plain transferFrom, an airdrop), so that it is not locked.
    /// @dev An NFT cannot be split by shares. Sent with transferFrom: the recipient must be able to hold NFTs.
    /// @param token The ERC-721 contract.
    /// @param tokenId The token id.
    /// @param recipient Where the NFT goes.
    function claimUnlistedNft(address token, uint256 tokenId, address recipient) external nonReentrant whenReleased {
        if (recipient == address(0)) {
            revert ZeroAddress();
        }
        if (msg.sender != _nftHeir()) {
            revert NotNftHeir();
        }
        if (token.code.length == 0) {
            revert NftNotHeld(token, tokenId);
        }
        try IERC721Minimal(token).ownerOf(tokenId) returns (address holder) {
            if (holder != address(this)) {
                revert NftNotHeld(token, tokenId);
            }
        } catch {
            revert NftNotHeld(token, tokenId);
        }
        emit UnlistedNftClaimed(token, tokenId, recipient);
        IERC721Minimal(token).transferFrom(address(this), recipient, tokenId);
    }

    /// @notice Owner takes back an ERC-20 token sent by mistake (this plan lists none).
    /// @dev Possible while the plan is live (then proof of life) or after cancel(); the whole balance goes to the owner.
    /// @param token The ERC-20 token.
    function rescueToken(address token) external onlyOwner liveOrCancelled nonReentrant {
        uint256 amount = _tokenBalance(token);
        if (amount == 0) {
            revert NothingToClaim();
        }
        emit TokenRescued(token, amount);
        _safeTransfer(token, _owner, amount);
    }

    /// @notice Owner takes back an NFT sent with transferFrom by mistake (this plan lists none).
    /// @dev Possible while the plan is live (then proof of life) or after cancel().
    /// @param token The ERC-721 contract.
    /// @param tokenId The token id.
    function rescueNft(address token, uint256 tokenId) external onlyOwner liveOrCancelled nonReentrant {
        emit NftRescued(token, tokenId);
        IERC721Minimal(token).transferFrom(address(this), _owner, tokenId);
    }

    /// @notice Sends the caller's due share of all ETH received (pull payment).
    /// @dev Accounting by total received, so later deposits are shared too.
    function claim() external nonReentrant whenReleased {
        _claimEth(msg.sender);
    }

    /// @notice Sends the caller's due share of ETH to another address, for a beneficiary (e.g. a contract) that cannot receive ETH itself.
    /// @param recipient Where the ETH goes.
    function claimTo(address recipient) external nonReentrant whenReleased {
        if (recipient == address(0)) {
            revert ZeroAddress();
        }
        _claimEth(recipient);
    }

    /// @notice The guardians.
    /// @return Guardian addresses.
    function guardians() external view returns (address[] memory) {
        return _guardians;
    }

    /// @notice How many guardians must agree.
    /// @return The threshold m of m-of-n.
    function threshold() external view returns (uint256) {
        return _threshold;
    }

    /// @notice How long the owner has to answer the guardians' confirmed early release; any sign of life cancels it.
    /// @return Seconds.
    function guardianWait() external view returns (uint256) {
        return _guardianWait;
    }

    /// @notice Guardian confirmations of an early release in the current round.
    /// @return Count.
    function releaseConfirmations() external view returns (uint256) {
        return _releaseVotes[_round];
    }

    /// @notice When the guardians' confirmed early release takes effect.
    /// @return Unix time in seconds; 0 when none is pending.
    function guardianReleaseTime() external view returns (uint256) {
        return _guardianReleaseAt;
    }

    /// @notice A guardian confirms the owner's absence; at the threshold an early release is proposed, which takes effect guardianWait() later if the owner stays silent.
    /// @dev Guardians never overrule a living owner: any owner action (check-in, deposit, update, withdrawal...) before then cancels it, starts a new round and clears votes.
    function confirmRelease() external onlyGuardian {
        if (_cancelled) {
            revert ContractCancelled();
        }
        if (isReleased()) {
            revert AlreadyReleased();
        }
        uint256 round = _round;
        if (_releaseVoted[round][msg.sender]) {
            revert AlreadyConfirmed();
        }
        _releaseVoted[round][msg.sender] = true;
        uint256 count = ++_releaseVotes[round];
        emit ReleaseConfirmed(msg.sender, round, count);
        if (count == _threshold && _guardianReleaseAt == 0) {
            _guardianReleaseAt = block.timestamp + _guardianWait;
            emit ReleaseProposed(_guardianReleaseAt);
        }
    }

    /// @notice Guardian vetoes in the current round.
    /// @return Count.
    function vetoes() external view returns (uint256) {
        return _vetoVotes[_round];
    }

    /// @notice How many times the guardians may postpone a release after each of the owner's signs of life.
    /// @return Count.
    function maxVetoes() external view returns (uint256) {
        return _maxVetoes;
    }

    /// @notice How many more times the guardians may postpone the release before the owner's next sign of life.
    /// @return Count.
    function vetoesLeft() external view returns (uint256) {
        return _maxVetoes - _vetoesUsed;
    }

    /// @notice During the grace period, a guardian vetoes a wrong trigger; at the threshold the deadline restarts from now.
    /// @dev At most maxVetoes() times after the owner's last sign of life; then the release proceeds.
    function vetoTrigger() external onlyGuardian {
        if (_cancelled) {
            revert ContractCancelled();
        }
        if (isReleased()) {
            revert AlreadyReleased();
        }
        if (_vetoesUsed >= _maxVetoes) {
            revert VetoLimitReached();
        }
        uint256 start = deadline();
        if (block.timestamp < start || block.timestamp >= start + _grace) {
            revert NotInGracePeriod();
        }
        uint256 round = _round;
        if (_vetoVoted[round][msg.sender]) {
            revert AlreadyConfirmed();
        }
        _vetoVoted[round][msg.sender] = true;
        uint256 count = ++_vetoVotes[round];
        emit TriggerVetoed(msg.sender, round, count);
        if (count >= _threshold) {
            _lastCheckIn = block.timestamp;
            ++_round;
            ++_vetoesUsed;
            emit CheckedIn(deadline());
        }
    }

    /// @notice ERC-20 tokens an account can claim now (after release, any token the contract holds).
    /// @dev Paid from the balance actually held. Each unclaimed share is owed its basis points of the round total; when the balance rises or falls other than by claims (rebasing, a fee, a deposit after the first claim), the round total is scaled with it, so the gain or loss falls only on the shares still unclaimed. When every share has claimed, what is left or arrives later is shared by all shares again (a new round).
    /// @param token An ERC-20 token.
    /// @param account The account.
    /// @return Token units due now (0 before release).
    function claimableToken(address token, address account) external view returns (uint256) {
        if (!isReleased()) {
            return 0;
        }
        (uint256 due, , , ) = _tokenDue(token, account, _tokenBalance(token));
        return due;
    }

    /// @notice Sends the caller's due share of an ERC-20 token: a listed one, or any token that reached the contract (an airdrop after the deadline included).
    /// @dev Paid from the balance actually held. Each unclaimed share is owed its basis points of the round total; when the balance rises or falls other than by claims (rebasing, a fee, a deposit after the first claim), the round total is scaled with it, so the gain or loss falls only on the shares still unclaimed. When every share has claimed, what is left or arrives later is shared by all shares again (a new round). A token that charges the sender a fee on top of the amount cannot send the whole balance: then the largest amount the balance allows is sent (fees up to half the amount).
    /// @param token An ERC-20 token the contract holds.
    function claimToken(address token) external nonReentrant whenReleased {
        _claimToken(token, msg.sender);
    }

    /// @notice Sends the caller's due share of an ERC-20 token to another address, for a beneficiary the token refuses (a blocklisting token) or that cannot hold it.
    /// @param token An ERC-20 token the contract holds.
    /// @param recipient Where the tokens go.
    function claimTokenTo(address token, address recipient) external nonReentrant whenReleased {
        if (recipient == address(0)) {
            revert ZeroAddress();
        }
        _claimToken(token, recipient);
    }

    function _claimToken(address token, address to) private {
        uint256 held = _tokenBalance(token);
        (uint256 amount, uint256 round, uint256 out, uint256 total) = _tokenDue(token, msg.sender, held);
        if (amount == 0) {
            revert NothingToClaim();
        }
        if (round != _tokenRound[token]) {
            _tokenRound[token] = round;
        }
        _tokenOut[token] = out + _shares[msg.sender];
        _tokenTotal[token] = total;
        _tokenClaimedIn[token][msg.sender] = round + 1;
        _tokenHeld[token] = held - amount;
        uint256 paid = _sendTokenUpTo(token, to, amount);
        if (paid != amount) {
            _tokenHeld[token] = held - paid;
        }
        emit TokenClaimed(token, msg.sender, paid);
    }

    function _tokenDue(address token, address account, uint256 held) private view returns (uint256 due, uint256 round, uint256 out, uint256 total) {
        round = _tokenRound[token];
        out = _tokenOut[token];
        total = _tokenTotal[token];
        if (out == 0 || out == TOTAL_SHARES) {
            if (out == TOTAL_SHARES) {
                ++round;
                out = 0;
            }
            total = held;
        } else {
            uint256 last = _tokenHeld[token];
            if (last == 0) {
                total = (held * TOTAL_SHARES) / (TOTAL_SHARES - out);
            } else {
                if (held != last) {
                    total = (total * held) / last;
                }
            }
        }
        uint256 share = _shares[account];
        if (share == 0 || _tokenClaimedIn[token][account] == round + 1) {
            return (0, round, out, total);
        }
        due = (total * share) / TOTAL_SHARES;
        if (due > held) {
            due = held;
        }
    }

    function _sendTokenUpTo(address token, address to, uint256 amount) private returns (uint256) {
        if (token.code.length == 0) {
            revert NotAContract(token);
        }
        if (_tryTransfer(token, to, amount)) {
            return amount;
        }
        uint16[9] memory cuts = [uint16(10_000), 1_000, 200, 100, 50, 20, 10, 4, 2];
        uint256 n = cuts.length;
        for (uint256 i; i < n; ++i) {
            uint256 part = amount - amount / cuts[i] - 1;
            if (part != 0 && _tryTransfer(token, to, part)) {
                return part;
            }
        }
        revert TokenTransferFailed(token);
    }

    /// @notice Deposits ETH into the estate; the owner's deposit is proof of life.
    receive() external payable {
        if (_cancelled) {
            revert ContractCancelled();
        }
        if (msg.sender == _owner && !isReleased()) {
            _proveLife();
        }
        emit Deposited(msg.sender, msg.value);
    }

    function _setBeneficiaries(address[] memory list, uint16[] memory shareList) private {
        uint256 n = list.length;
        if (n == 0 || n > MAX_BENEFICIARIES) {
            revert InvalidCount();
        }
        if (shareList.length != n) {
            revert LengthMismatch();
        }
        uint256 previous = _beneficiaries.length;
        for (uint256 i; i < previous; ++i) {
            delete _shares[_beneficiaries[i]];
        }
        delete _beneficiaries;
        uint256 total;
        for (uint256 i; i < n; ++i) {
            address account = list[i];
            uint256 share = shareList[i];
            if (account == address(0)) {
                revert ZeroAddress();
            }
            if (share == 0) {
                revert InvalidShares();
            }
            if (_shares[account] != 0) {
                revert DuplicateAddress(account);
            }
            _shares[account] = share;
            _beneficiaries.push(account);
            total += share;
        }
        if (total != TOTAL_SHARES) {
            revert InvalidShares();
        }
        emit BeneficiariesUpdated(list, shareList);
    }

    function _proveLife() private {
        _lastCheckIn = block.timestamp;
        ++_round;
        _guardianReleaseAt = 0;
        _vetoesUsed = 0;
        emit CheckedIn(deadline());
    }

    function _claimEth(address to) private {
        uint256 amount = _pending(msg.sender);
        if (amount == 0) {
            revert NothingToClaim();
        }
        _claimed[msg.sender] += amount;
        _totalClaimed += amount;
        emit Claimed(msg.sender, amount);
        _sendEth(to, amount);
    }

    function _pending(address account) private view returns (uint256) {
        uint256 due = (totalReceived() * _shares[account]) / TOTAL_SHARES;
        uint256 paid = _claimed[account];
        return due > paid ? due - paid : 0;
    }

    function _sendEth(address to, uint256 amount) private {
        (bool ok, ) = payable(to).call{value: amount}("");
        if (!ok) {
            revert TransferFailed(to);
        }
    }

    function _tokenBalance(address token) private view returns (uint256) {
        if (token.code.length == 0) {
            return 0;
        }
        try IERC20Minimal(token).balanceOf(address(this)) returns (uint256 held) {
            return held;
        } catch {
            return 0;
        }
    }

    function _safeTransfer(address token, address to, uint256 amount) private {
        if (token.code.length == 0) {
            revert NotAContract(token);
        }
        if (!_tryTransfer(token, to, amount)) {
            revert TokenTransferFailed(token);
        }
    }

    function _tryTransfer(address token, address to, uint256 amount) private returns (bool) {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Minimal.transfer, (to, amount)));
        return ok && (data.length == 0 ? token.code.length != 0 : data.length == 32 && abi.decode(data, (uint256)) == 1);
    }

    function _nftHeir() private view returns (address) {
        uint256 n = _beneficiaries.length;
        address heir = _beneficiaries[0];
        uint256 best = _shares[heir];
        for (uint256 i; i < n; ++i) {
            address account = _beneficiaries[i];
            if (_shares[account] > best) {
                heir = account;
                best = _shares[account];
            }
        }
        return heir;
    }
}
