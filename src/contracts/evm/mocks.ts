import { SOLC_VERSION } from './contract.js';

/**
 * Minimal ERC-20 and ERC-721 tokens used to execute token claims in the VM.
 * Their runtime code is installed at the plan's token addresses, so the
 * contract is exercised with its real constructor arguments. Not generated
 * output: fixed test doubles compiled once per pool.
 */
export const MOCK_ERC20_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

contract MockERC20 {
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        require(balanceOf[msg.sender] >= amount, "balance");
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
`;

export const MOCK_ERC721_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data) external returns (bytes4);
}

contract MockERC721 {
    mapping(uint256 => address) public ownerOf;
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    function mint(address to, uint256 tokenId) external {
        require(ownerOf[tokenId] == address(0), "minted");
        ownerOf[tokenId] = to;
        emit Transfer(address(0), to, tokenId);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(ownerOf[tokenId] == from && from == msg.sender, "owner");
        require(to != address(0), "zero");
        ownerOf[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            require(IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, "") == IERC721Receiver.onERC721Received.selector, "receiver");
        }
    }
}
`;

/**
 * The ERC-721 the generation check runs NFT claims against: OpenZeppelin's
 * ERC721 with a public `mint`. Unlike MockERC721 it keeps balances and
 * approvals, so `claimNft` is measured at what a transfer of a real NFT costs
 * (cleared approval, two balances, the owner slot). Installed as runtime code
 * without its constructor: name and symbol stay empty, nothing else depends on
 * them.
 */
export const REAL_ERC721_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

contract TestERC721 is ERC721 {
    constructor() ERC721("Test NFT", "TNFT") {}

    function mint(address to, uint256 tokenId) external {
        _mint(to, tokenId);
    }
}
`;

/**
 * An ERC-20 that can be paused and can blocklist addresses, like USDC or USDT:
 * while paused, or to or from a blocklisted address, `transfer` reverts.
 * Test double for cancel() returning each asset on its own.
 */
export const MOCK_PAUSABLE_ERC20_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

contract MockPausableERC20 {
    mapping(address => uint256) public balanceOf;
    mapping(address => bool) public blocked;
    bool public paused;
    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function setPaused(bool value) external {
        paused = value;
    }

    function setBlocked(address account, bool value) external {
        blocked[account] = value;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        require(!paused, "paused");
        require(!blocked[msg.sender] && !blocked[to], "blocked");
        require(balanceOf[msg.sender] >= amount, "balance");
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
`;

/**
 * A rebasing ERC-20: balances are internal units times an index that
 * `rebase(numerator, denominator)` scales for every holder at once (a 10% loss
 * is `rebase(9, 10)`). Test double for claims paying from the balance held.
 */
export const MOCK_REBASING_ERC20_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

contract MockRebasingERC20 {
    uint256 private constant ONE = 1e18;
    mapping(address => uint256) private _units;
    /// @dev 0 stands for ONE, so the runtime code works when installed without a constructor.
    uint256 private _index;
    event Transfer(address indexed from, address indexed to, uint256 value);

    function index() public view returns (uint256) {
        return _index == 0 ? ONE : _index;
    }

    function balanceOf(address account) public view returns (uint256) {
        return (_units[account] * index()) / ONE;
    }

    function mint(address to, uint256 amount) external {
        _units[to] += (amount * ONE) / index();
        emit Transfer(address(0), to, amount);
    }

    function rebase(uint256 numerator, uint256 denominator) external {
        _index = (index() * numerator) / denominator;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 units = (amount * ONE + index() - 1) / index();
        require(_units[msg.sender] >= units, "balance");
        _units[msg.sender] -= units;
        _units[to] += units;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
`;
